//! NNUE-style evaluation: one hidden layer over sparse piece-square and hand features, seen
//! from each side, trained by `shishi train` (`train.rs`) on `shishi datagen` positions.
//!
//! Features of a position from the point of view of colour `c` (the side to move's view and
//! the other side's are both fed, ours first): for each piece on the board, its owner
//! relative to `c` (ours, theirs), its kind and its square, the board turned half a turn for
//! White so that each side sees itself at the bottom; for each kind that can be in hand and
//! each owner, one feature per piece held, up to [`HAND_CAP`]. The network:
//! `acc_c = b + Σ W[f]` over the features seen from `c` (H values), then
//! `out = Σ screlu(acc_us)·v_us + Σ screlu(acc_them)·v_them + b_out` with
//! `screlu(x) = clamp(x, 0, 1)²`, and the score is `out · OUT_SCALE` centipawns in the search's
//! scale, from the side to move's view. A network's [`Base`] is what it adds that to: nothing;
//! the handcrafted evaluation (a residual network: it learns what the handcrafted terms miss,
//! which takes far fewer positions than learning the whole score), whole or without its
//! mobility terms; its terms that walk no lines (material, hand, and the pieces around each
//! royal counted with masks: chu's, whose attack counts and mobility are slow on 12×12); or
//! only its material and piece-square part, which the position keeps summed move by move,
//! so that the network learns the rest and the evaluation costs little more than the
//! network.
//!
//! Invariants: a network is made for one variant ([`Network::input_count`] fixes its feature
//! count); every feature index is below it (the tests walk random games); the weights are
//! `f32`, stored little-endian in the file format of [`Network::to_bytes`], and trained so;
//! the search sums the feature weights in 16 bits ([`Network::quantized`], `quant.rs`: each
//! weight to 1/1024 or finer in the built-in networks, with no sum able to overflow), which
//! halves the bytes read a move, and turns the sums back into `f32` for the output layer.

mod acc;
pub mod quant;
mod simd;
pub mod train;

pub use acc::Stack;
pub use quant::Quantized;

use crate::geometry::{col_of, row_of};
use crate::piece::{Color, kind_of};
use crate::position::Position;
use crate::variant::Variant;

/// Pieces of one kind in hand that get a feature of their own.
pub const HAND_CAP: usize = 10;
/// The network's output is multiplied by this to give centipawns.
pub const OUT_SCALE: f32 = 400.0;
/// Most hidden units per side a network may have.
pub const MAX_HIDDEN: usize = 1024;
/// File magic.
const MAGIC: &[u8; 8] = b"SHISHINN";
/// File format version.
const VERSION: u32 = 1;

/// Number of input features of a variant.
pub fn input_count(v: &Variant) -> usize {
    2 * v.pieces.len() * v.width * v.height + 2 * v.t.hand_kinds.len() * HAND_CAP
}

/// The feature of a piece of kind `kind` (1-based) and colour `owner` on square `s`, seen
/// from `c`.
#[inline]
pub fn board_feature(v: &Variant, c: Color, owner: Color, kind: u8, s: crate::geometry::Sq) -> usize {
    let (w, h) = (v.width, v.height);
    let (col, row) = (col_of(s), row_of(s));
    let at = if c == Color::Black {
        row * w + col
    } else {
        (h - 1 - row) * w + (w - 1 - col)
    };
    ((((owner != c) as usize) * v.pieces.len() + kind as usize - 1) * w * h) + at
}

/// The features of a piece of kind `kind` and colour `owner` on square `s` seen from Black
/// and from White: [`board_feature`] for both views at once (White's view turns the board
/// half a turn, which maps the square's index `at` to `w·h − 1 − at`).
#[inline]
pub fn board_features(v: &Variant, owner: Color, kind: u8, s: crate::geometry::Sq) -> [usize; 2] {
    let nsq = v.width * v.height;
    let at = row_of(s) * v.width + col_of(s);
    let plane = (kind as usize - 1) * nsq;
    let theirs = v.pieces.len() * nsq;
    let (black, white) = if owner == Color::Black { (0, theirs) } else { (theirs, 0) };
    [black + plane + at, white + plane + nsq - 1 - at]
}

/// The feature of the `j`-th (0-based) piece of hand kind number `i` (in
/// `Tables::hand_kinds`) held by `owner`, seen from `c` (`j < HAND_CAP`).
#[inline]
pub fn hand_feature(v: &Variant, c: Color, owner: Color, i: usize, j: usize) -> usize {
    2 * v.pieces.len() * v.width * v.height + (((owner != c) as usize) * v.t.hand_kinds.len() + i) * HAND_CAP + j
}

/// The feature of the same piece on the square mirrored left to right (hand features are
/// their own mirror). Variants whose rules are the same mirrored left to right can train on
/// each position and its mirror image.
#[inline]
pub fn mirror_feature(v: &Variant, f: usize) -> usize {
    let nsq = v.width * v.height;
    if f >= 2 * v.pieces.len() * nsq {
        return f;
    }
    let col = f % nsq % v.width;
    f - col + (v.width - 1 - col)
}

/// Appends to `out` the features of `pos` seen from `c`.
pub fn features(pos: &Position, c: Color, out: &mut Vec<u16>) {
    let v = pos.variant();
    for pc in Color::BOTH {
        for s in pos.occupied(pc).iter() {
            out.push(board_feature(v, c, pc, kind_of(pos.piece_at(s)), s) as u16);
        }
    }
    for pc in Color::BOTH {
        for (i, &k) in v.t.hand_kinds.iter().enumerate() {
            let n = (pos.hand(pc, k) as usize).min(HAND_CAP);
            out.extend((0..n).map(|j| hand_feature(v, c, pc, i, j) as u16));
        }
    }
}

/// A network built into the binary: its variant and the file's bytes (from `nnue/`).
type BuiltIn = (&'static str, &'static [u8]);

/// The networks built into the binary.
const BUILT_IN: &[BuiltIn] = &[
    ("shogi", include_bytes!("../../nnue/shogi.nn")),
    ("cannonshogi", include_bytes!("../../nnue/cannonshogi.nn")),
    ("shoshogi", include_bytes!("../../nnue/shoshogi.nn")),
    ("chushogi", include_bytes!("../../nnue/chushogi.nn")),
];

/// Each entry of `BUILT_IN` parsed (same index), when its variant first asks for it.
static PARSED: [std::sync::OnceLock<Option<std::sync::Arc<Network>>>; BUILT_IN.len()] = [const { std::sync::OnceLock::new() }; BUILT_IN.len()];

/// A built-in network read for its variant (none if it does not read, which a test rules out).
fn parse_builtin((name, bytes): BuiltIn) -> Option<std::sync::Arc<Network>> {
    let v = Variant::by_name(name)?;
    Network::from_bytes(bytes, v).ok().map(std::sync::Arc::new)
}

/// The network built into the binary for `v`, if any (see `BUILT_IN`); `EvalFile`'s
/// default. Each is parsed once, when its variant first asks for it.
pub fn builtin(v: &Variant) -> Option<std::sync::Arc<Network>> {
    let i = BUILT_IN.iter().position(|(name, _)| *name == v.name)?;
    PARSED[i].get_or_init(|| parse_builtin(BUILT_IN[i])).clone()
}

/// What an `EvalFile` setting names for variant `v`: [`BUILTIN`] the built-in network (if
/// any), `""` or `<none>` none (the handcrafted evaluation), else the network in that file.
/// Errors: the file cannot be read, or it is not a network for `v`.
pub fn from_setting(setting: &str, v: &Variant) -> Result<Option<std::sync::Arc<Network>>, SettingError> {
    match setting {
        "" | "<none>" => Ok(None),
        BUILTIN => Ok(builtin(v)),
        path => {
            let bytes = std::fs::read(path).map_err(|e| SettingError::Read(format!("cannot read network file '{path}': {e}")))?;
            let net = Network::from_bytes(&bytes, v).map_err(|e| SettingError::Net(format!("network file '{path}': {e}"), e))?;
            Ok(Some(std::sync::Arc::new(net)))
        }
    }
}

/// The `EvalFile` value that names the networks built into the binary (the default).
pub const BUILTIN: &str = "<builtin>";

/// Why an `EvalFile` setting gives no network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingError {
    /// The file cannot be read (the message).
    Read(String),
    /// The file is not a network for the variant (the message, and why).
    Net(String, NetError),
}

impl std::fmt::Display for SettingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SettingError::Read(m) | SettingError::Net(m, _) => f.write_str(m),
        }
    }
}

/// The handcrafted evaluation of `pos` in the search's scale (what a residual network adds to).
pub fn base_score(pos: &Position) -> i32 {
    crate::eval::params(pos.variant()).search_score(crate::eval::evaluate(pos))
}

/// What a network's output is added to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Base {
    /// Nothing: the network is the whole evaluation.
    #[default]
    None,
    /// The handcrafted evaluation ([`base_score`]): a residual network.
    Handcrafted,
    /// The handcrafted evaluation's tempo, material and piece-square part alone
    /// ([`crate::eval::material`]), which the position keeps summed move by move.
    Material,
    /// The handcrafted evaluation without its mobility terms
    /// ([`crate::eval::evaluate_without_mobility`]), which the position then need not keep.
    NoMobility,
    /// The handcrafted evaluation's terms that walk no lines ([`crate::eval::evaluate_light`]):
    /// the material sums, the hand, and the pieces around each royal counted with masks.
    Light,
}

impl Base {
    /// Every kind, in the order of their file codes and names.
    pub const ALL: [Base; 5] = [Base::None, Base::Handcrafted, Base::Material, Base::NoMobility, Base::Light];

    /// The score of `pos` this base gives (search scale, side to move's view).
    #[inline]
    pub fn score(self, pos: &Position) -> i32 {
        let raw = match self {
            Base::None => return 0,
            Base::Handcrafted => crate::eval::evaluate(pos),
            Base::Material => crate::eval::material(pos),
            Base::NoMobility => crate::eval::evaluate_without_mobility(pos),
            Base::Light => crate::eval::evaluate_light(pos),
        };
        crate::eval::params(pos.variant()).search_score(raw)
    }

    /// Whether this base walks the board (the handcrafted evaluation, whole or without
    /// mobility), so that a search does well to read it through a cache; the others are the
    /// position's running sums or nothing.
    pub fn walks_the_board(self) -> bool {
        matches!(self, Base::Handcrafted | Base::NoMobility)
    }

    /// Whether this base reads the mobility sums that a position may keep move by move (only
    /// the whole handcrafted evaluation does; a search with another stops keeping them).
    pub fn reads_mobility_sums(self) -> bool {
        self == Base::Handcrafted
    }

    /// The code in a network file's flags.
    pub fn code(self) -> u32 {
        self as u32
    }

    /// The name `shishi train --base` takes.
    pub fn name(self) -> &'static str {
        ["none", "handcrafted", "material", "no-mobility", "light"][self as usize]
    }

    /// The kind with the file code `code` ([`Base::code`]).
    pub fn from_code(code: u32) -> Option<Base> {
        Base::ALL.get(code as usize).copied()
    }

    /// The kind named `name` ([`Base::name`]).
    pub fn by_name(name: &str) -> Option<Base> {
        Base::ALL.into_iter().find(|b| b.name() == name)
    }
}

/// A trained network for one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// The variant's name.
    pub variant: String,
    /// Hidden width H (per side).
    pub hidden: usize,
    /// Feature weights, `input_count × H` (row per feature).
    pub ft_w: Vec<f32>,
    /// Feature biases, H.
    pub ft_b: Vec<f32>,
    /// Output weights, `2H` (ours, then theirs).
    pub out_w: Vec<f32>,
    /// Output bias.
    pub out_b: f32,
    /// What the output is added to.
    pub base: Base,
    /// The 16-bit copy the search sums ([`Network::quantized`]).
    quant: QuantCell,
}

/// A network's 16-bit weights, made from its `f32` ones at their first use. A clone starts
/// without them: a network is cloned to be changed (training), and its weights must not
/// change once they have been made (a network shared by a search never does).
#[derive(Default)]
struct QuantCell(std::sync::OnceLock<Quantized>);

impl Clone for QuantCell {
    fn clone(&self) -> QuantCell {
        QuantCell::default()
    }
}

/// The copy follows from the weights: networks compare by their weights alone.
impl PartialEq for QuantCell {
    fn eq(&self, _: &QuantCell) -> bool {
        true
    }
}

impl std::fmt::Debug for QuantCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.get().is_some() { "QuantCell(made)" } else { "QuantCell(not yet)" })
    }
}

/// Why a network file could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetError {
    /// Not a Shishi network file, or cut short.
    Format(String),
    /// Made for another variant.
    Variant {
        /// The variant the file is for.
        file: String,
        /// The variant asked for.
        want: String,
    },
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetError::Format(why) => write!(f, "not a Shishi network: {why}"),
            NetError::Variant { file, want } => write!(f, "the network is for {file}, not {want}"),
        }
    }
}

impl std::error::Error for NetError {}

impl Network {
    /// A network of zeros for `v` with `hidden` units (the trainer initialises it).
    pub fn zeros(v: &Variant, hidden: usize, base: Base) -> Network {
        Network {
            base,
            variant: v.name.to_string(),
            hidden,
            ft_w: vec![0.0; input_count(v) * hidden],
            ft_b: vec![0.0; hidden],
            out_w: vec![0.0; 2 * hidden],
            out_b: 0.0,
            quant: QuantCell::default(),
        }
    }

    /// The 16-bit weights the search sums (see `quant.rs`), made at the first call.
    pub fn quantized(&self) -> &Quantized {
        self.quant.0.get_or_init(|| Quantized::new(self, Variant::by_name(&self.variant)))
    }

    /// Number of input features.
    pub fn input_count(&self) -> usize {
        self.ft_w.len() / self.hidden.max(1)
    }

    /// The accumulator (H values) of a feature list.
    pub fn accumulate(&self, feats: &[u16], acc: &mut [f32]) {
        let h = self.hidden;
        acc.copy_from_slice(&self.ft_b);
        for &f in feats {
            simd::add(acc, &self.ft_w[f as usize * h..(f as usize + 1) * h]);
        }
    }

    /// The 16-bit accumulator (H values) of a feature list: what the search sums
    /// ([`Self::quantized`]).
    pub fn accumulate_q(&self, feats: &[u16], acc: &mut [i16]) {
        let (h, q) = (self.hidden, self.quantized());
        acc.copy_from_slice(&q.b);
        for &f in feats {
            simd::add_q(acc, &q.w[f as usize * h..(f as usize + 1) * h]);
        }
    }

    /// The raw output (before [`OUT_SCALE`]) from the two `f32` accumulators (training's
    /// form): `out_b + Σ screlu(acc)·out_w`, ours then theirs.
    pub fn output(&self, us: &[f32], them: &[f32]) -> f32 {
        let h = self.hidden;
        let sum = |acc: &[f32], w: &[f32]| acc.iter().zip(w).map(|(a, w)| simd::screlu(*a) * w).sum::<f32>();
        self.out_b + sum(us, &self.out_w[..h]) + sum(them, &self.out_w[h..])
    }

    /// The raw output from the two 16-bit accumulators, each turned back into `f32` exactly.
    /// The products are summed in `simd::LANES` running sums (lane `i` takes units `i`,
    /// `i + LANES`, …), added in a fixed order at the end: the compiler can keep them in
    /// vector registers, and the result is the same bit for bit on every machine (`simd.rs`).
    pub fn output_q(&self, us: &[i16], them: &[i16]) -> f32 {
        let h = self.hidden;
        let lanes = simd::lanes([(us, &self.out_w[..h]), (them, &self.out_w[h..])], self.quantized().inv);
        self.out_b + lanes.iter().sum::<f32>()
    }

    /// The evaluation of `pos` in centipawns from the side to move's view (the search's
    /// scale). The position must be of the network's variant.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.evaluate_output(pos) + self.base.score(pos)
    }

    /// The network's part of [`Self::evaluate`] ([`Self::scaled_output`]), from accumulators
    /// summed afresh.
    pub fn evaluate_output(&self, pos: &Position) -> i32 {
        let [us, them] = self.fresh(pos, |f, acc| self.accumulate_q(f, acc));
        self.scaled_output(&us[..self.hidden], &them[..self.hidden])
    }

    /// [`Self::evaluate_output`] with the `f32` weights (what training fits): the 16-bit
    /// sums' rounding is the difference.
    pub fn evaluate_output_f32(&self, pos: &Position) -> i32 {
        let [us, them] = self.fresh(pos, |f, acc| self.accumulate(f, acc));
        (self.output(&us[..self.hidden], &them[..self.hidden]) * OUT_SCALE).round() as i32
    }

    /// The two accumulators of `pos` (the side to move's view first) summed afresh by `sum`
    /// over each view's features.
    fn fresh<T: Copy + Default>(&self, pos: &Position, sum: impl Fn(&[u16], &mut [T])) -> [[T; MAX_HIDDEN]; 2] {
        let us = pos.side_to_move();
        let mut feats = Vec::with_capacity(128);
        let mut acc = [[T::default(); MAX_HIDDEN]; 2];
        for (c, acc) in [us, us.flip()].into_iter().zip(&mut acc) {
            feats.clear();
            features(pos, c, &mut feats);
            sum(&feats, &mut acc[..self.hidden]);
        }
        acc
    }

    /// The network's score from its two 16-bit accumulators (the side to move's, the
    /// other's): the output times [`OUT_SCALE`], rounded, in centipawns of the search's
    /// scale; what is added to its [`Base`]'s score.
    pub fn scaled_output(&self, us: &[i16], them: &[i16]) -> i32 {
        (self.output_q(us, them) * OUT_SCALE).round() as i32
    }

    /// The file form: magic, version, variant name, flags (the [`Base`]'s code: 0 none, 1
    /// handcrafted, 2 material, 3 no-mobility, 4 light), H, input count, then the weights.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(16 + 4 * (self.ft_w.len() + 3 * self.hidden + 1));
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&(self.variant.len() as u32).to_le_bytes());
        b.extend_from_slice(self.variant.as_bytes());
        b.extend_from_slice(&self.base.code().to_le_bytes());
        b.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        b.extend_from_slice(&(self.input_count() as u32).to_le_bytes());
        for x in self.ft_w.iter().chain(&self.ft_b).chain(&self.out_w).chain(std::iter::once(&self.out_b)) {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b
    }

    /// Reads the file form for variant `v`.
    pub fn from_bytes(bytes: &[u8], v: &Variant) -> Result<Network, NetError> {
        let short = || NetError::Format("the file is cut short".into());
        let mut at = 0usize;
        let mut take = |n: usize| -> Result<&[u8], NetError> {
            let s = bytes.get(at..at + n).ok_or_else(short)?;
            at += n;
            Ok(s)
        };
        if take(8)? != MAGIC {
            return Err(NetError::Format("bad magic".into()));
        }
        let word = |s: &[u8]| u32::from_le_bytes([s[0], s[1], s[2], s[3]]);
        let version = word(take(4)?);
        if version != VERSION {
            return Err(NetError::Format(format!("version {version}, expected {VERSION}")));
        }
        let name_len = word(take(4)?) as usize;
        if name_len > 64 {
            return Err(NetError::Format("bad variant name".into()));
        }
        let name = String::from_utf8(take(name_len)?.to_vec()).map_err(|_| NetError::Format("bad variant name".into()))?;
        if name != v.name {
            return Err(NetError::Variant {
                file: name,
                want: v.name.to_string(),
            });
        }
        let flags = word(take(4)?);
        let base = Base::from_code(flags).ok_or_else(|| NetError::Format(format!("unknown flags {flags}")))?;
        let hidden = word(take(4)?) as usize;
        let inputs = word(take(4)?) as usize;
        if inputs != input_count(v) || hidden == 0 || hidden > MAX_HIDDEN {
            return Err(NetError::Format(format!("{inputs} inputs and {hidden} hidden units do not fit {}", v.name)));
        }
        let mut floats = |n: usize| -> Result<Vec<f32>, NetError> {
            let s = take(4 * n)?;
            Ok(s.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
        };
        let ft_w = floats(inputs * hidden)?;
        let ft_b = floats(hidden)?;
        let out_w = floats(2 * hidden)?;
        let out_b = floats(1)?[0];
        if at != bytes.len() {
            return Err(NetError::Format("trailing bytes".into()));
        }
        if !ft_w.iter().chain(&ft_b).chain(&out_w).all(|x| x.is_finite()) || !out_b.is_finite() {
            return Err(NetError::Format("a weight is not a finite number".into()));
        }
        let net = Network {
            base,
            variant: name,
            hidden,
            ft_w,
            ft_b,
            out_w,
            out_b,
            quant: QuantCell::default(),
        };
        // The 16-bit copy is made now, and must keep the weights to 1/64 at least.
        let scale = net.quantized().scale;
        if scale < quant::MIN_FILE_SCALE {
            return Err(NetError::Format(format!("weights too large for 16-bit sums (scale {scale})")));
        }
        Ok(net)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random_net(v: &Variant, hidden: usize, seed: u64) -> Network {
        let mut n = Network::zeros(v, hidden, Base::None);
        let mut s = seed;
        let mut next = || (crate::eval::xorshift(&mut s) % 2001) as f32 / 1000.0 - 1.0;
        for w in n.ft_w.iter_mut() {
            *w = 0.1 * next();
        }
        for w in n.ft_b.iter_mut().chain(n.out_w.iter_mut()) {
            *w = 0.5 * next();
        }
        n.out_b = 0.1;
        n
    }

    #[test]
    fn the_output_in_running_sums_is_the_plain_sum_in_both_forms() {
        // Hidden widths below, at and off a multiple of the lanes.
        let v = Variant::by_name("shogi").expect("shogi");
        for hidden in [5, simd::LANES, 2 * simd::LANES + 3] {
            let net = random_net(v, hidden, 11 + hidden as u64);
            let mut s = 7u64;
            let mut next = || (crate::eval::xorshift(&mut s) % 3001) as f32 / 1000.0 - 1.0;
            // 16-bit accumulators over the clamp's whole range and past it.
            let scale = net.quantized().scale;
            let mut acc = || (next() * 1.5 * scale) as i16;
            let us: Vec<i16> = (0..hidden).map(|_| acc()).collect();
            let them: Vec<i16> = (0..hidden).map(|_| acc()).collect();
            let act = |x: i16| (f64::from(x) / f64::from(scale)).clamp(0.0, 1.0).powi(2);
            let plain = f64::from(net.out_b)
                + us.iter().zip(&net.out_w[..hidden]).map(|(a, w)| act(*a) * f64::from(*w)).sum::<f64>()
                + them.iter().zip(&net.out_w[hidden..]).map(|(a, w)| act(*a) * f64::from(*w)).sum::<f64>();
            let got = f64::from(net.output_q(&us, &them));
            assert!((got - plain).abs() < 1e-4, "hidden {hidden}: {got} against {plain}");
            // And the f32 form (training's) on the same values.
            let to_f32 = |a: &[i16]| a.iter().map(|&x| f32::from(x) / scale).collect::<Vec<_>>();
            let got = f64::from(net.output(&to_f32(&us), &to_f32(&them)));
            assert!((got - plain).abs() < 1e-4, "hidden {hidden}: {got} against {plain}");
        }
    }

    #[test]
    fn features_stay_in_range_and_mirror_between_the_two_sides() {
        for v in crate::variant::all() {
            let n = input_count(v);
            crate::eval::random_game(v, 11, 120, &mut |pos: &Position| {
                for c in Color::BOTH {
                    let mut f = Vec::new();
                    features(pos, c, &mut f);
                    assert!(f.iter().all(|&i| (i as usize) < n), "{}", v.name);
                    let on_board = pos.occupied(Color::Black).count() + pos.occupied(Color::White).count();
                    assert!(f.len() >= on_board as usize);
                }
                // Both views' features of a piece at once are each view's own.
                for owner in Color::BOTH {
                    for s in pos.occupied(owner).iter() {
                        let k = kind_of(pos.piece_at(s));
                        let both = [Color::Black, Color::White].map(|c| board_feature(v, c, owner, k, s));
                        assert_eq!(board_features(v, owner, k, s), both, "{}", v.name);
                    }
                }
            });
        }
    }

    #[test]
    fn a_colour_flipped_position_gets_the_same_score() {
        // The start position turned half a turn with colours swapped is itself, with the
        // other side to move: the score for the side to move is the same either way.
        let v = Variant::by_name("shogi").expect("shogi");
        let net = random_net(v, 16, 3);
        let black = Position::from_sfen(v, "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2").expect("sfen");
        let white = Position::from_sfen(v, "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2").expect("sfen");
        assert_eq!(net.evaluate(&black), net.evaluate(&white));
        // A pawn in hand changes the score.
        let with_hand = Position::from_sfen(v, "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w P 2").expect("sfen");
        assert_ne!(net.evaluate(&black), net.evaluate(&with_hand));
        // A residual network adds the handcrafted evaluation, a material-based one its
        // material and piece-square part.
        let residual = Network {
            base: Base::Handcrafted,
            ..net.clone()
        };
        assert_eq!(residual.evaluate(&with_hand), net.evaluate(&with_hand) + base_score(&with_hand));
        assert_ne!(base_score(&with_hand), 0);
        let chu = Variant::by_name("chushogi").expect("chu");
        let chu_net = Network {
            base: Base::Material,
            ..random_net(chu, 16, 4)
        };
        let none = Network {
            base: Base::None,
            ..chu_net.clone()
        };
        // Black a lion up (White's gone), White to move.
        let up = Position::from_sfen(
            chu,
            "lfcsgekgscfl/a1b1txot1b1a/mvrhdq1dhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w - 1",
        )
        .expect("sfen");
        let material = crate::eval::params(chu).search_score(crate::eval::material(&up));
        assert!(material < -1000, "{material}");
        assert_eq!(chu_net.evaluate(&up), none.evaluate(&up) + material);
    }

    #[test]
    fn the_built_in_networks_read_and_the_other_variants_have_none() {
        // Each variant with a network: the start position, and Black a rook up (White's taken
        // and in Black's hand; in chu a lion) with Black and then White to move.
        let cases = [
            (
                "shogi",
                "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1",
                "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w R 1",
            ),
            (
                "cannonshogi",
                "lnsgkgsnl/2ci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL b R 1",
                "lnsgkgsnl/2ci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL w R 1",
            ),
            // No drops in sho: White's rook is simply gone.
            (
                "shoshogi",
                "lnsgkgsnl/4e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1",
                "lnsgkgsnl/4e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w - 1",
            ),
            // Chu: White's lion is gone.
            (
                "chushogi",
                "lfcsgekgscfl/a1b1txot1b1a/mvrhdq1dhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1",
                "lfcsgekgscfl/a1b1txot1b1a/mvrhdq1dhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w - 1",
            ),
        ];
        for v in crate::variant::all() {
            let net = builtin(v);
            let case = cases.iter().find(|c| c.0 == v.name);
            assert_eq!(net.is_some(), case.is_some(), "{}", v.name);
            if let (Some(net), Some(&(_, up, down))) = (net, case) {
                // Chu's adds to the handcrafted terms that walk no lines.
                let want = if v.name == "chushogi" { Base::Light } else { Base::Handcrafted };
                assert_eq!(net.base, want, "{}: the network's base", v.name);
                let start = Position::startpos(v);
                let up = Position::from_sfen(v, up).expect("sfen");
                assert!(net.evaluate(&up) > net.evaluate(&start) + 500, "{}: {}", v.name, net.evaluate(&up));
                let down = Position::from_sfen(v, down).expect("sfen");
                assert!(net.evaluate(&down) < -500, "{}: {}", v.name, net.evaluate(&down));
            }
        }
    }

    #[test]
    fn mirrored_features_are_those_of_the_mirror_image() {
        let v = Variant::by_name("shogi").expect("shogi");
        // A position and its image left to right (each rank read backwards).
        let a = Position::from_sfen(v, "ln1gk2nl/1r1s2gb1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/1B5R1/LN1GKGSNL b s 9").expect("sfen");
        let b = Position::from_sfen(v, "ln2kg1nl/1bg2s1r1/pp1pppp1p/2p6/7p1/6P2/PPPPPPSPP/1R5B1/LNSGKG1NL b s 9").expect("sfen");
        for c in Color::BOTH {
            let (mut fa, mut fb) = (Vec::new(), Vec::new());
            features(&a, c, &mut fa);
            features(&b, c, &mut fb);
            let mut fa: Vec<usize> = fa.iter().map(|&f| mirror_feature(v, f as usize)).collect();
            let mut fb: Vec<usize> = fb.iter().map(|&f| f as usize).collect();
            fa.sort();
            fb.sort();
            assert_eq!(fa, fb);
        }
    }

    #[test]
    fn the_file_form_round_trips_and_bad_files_are_refused() {
        let v = Variant::by_name("shogi").expect("shogi");
        let mut net = random_net(v, 8, 5);
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes, v), Ok(net.clone()));
        for base in Base::ALL {
            net.base = base;
            assert_eq!(Network::from_bytes(&net.to_bytes(), v), Ok(net.clone()));
            assert_eq!((Base::by_name(base.name()), Base::from_code(base.code())), (Some(base), Some(base)));
        }
        let mut flags = net.to_bytes();
        flags[16 + v.name.len()] = Base::ALL.len() as u8;
        assert!(matches!(Network::from_bytes(&flags, v), Err(NetError::Format(_))));
        let sho = Variant::by_name("shoshogi").expect("sho");
        assert!(matches!(Network::from_bytes(&bytes, sho), Err(NetError::Variant { .. })));
        assert!(matches!(Network::from_bytes(&bytes[..bytes.len() - 1], v), Err(NetError::Format(_))));
        assert!(matches!(Network::from_bytes(b"garbage", v), Err(NetError::Format(_))));
        let mut nan = net.clone();
        nan.out_w[0] = f32::NAN;
        assert!(matches!(Network::from_bytes(&nan.to_bytes(), v), Err(NetError::Format(_))));
    }
}
