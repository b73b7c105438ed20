//! Memory of the search's large tables (the transposition table; each thread's histories and
//! evaluation cache): zeroed blocks, those from a quarter of a huge page up made of whole 2 MiB
//! pages and aligned to them, which Linux is asked to back with transparent huge pages
//! (`madvise(MADV_HUGEPAGE)`), as Stockfish does. With 4 KiB pages nearly every probe of a
//! large table also misses the TLB; with 2 MiB pages a 64 MiB table needs only 32 TLB entries.
//! Where the advice is refused or unknown (another system, huge pages off) the blocks work the
//! same with ordinary pages. Also the prefetch hint the search gives before it reads them.
//!
//! Invariants: the block holds `len` values of `T`, all bytes zero at the start, and lives
//! until the `Block` is dropped; `T` must be a type for which all-zero bytes are a valid
//! value ([`Zeroable`]).

use std::alloc::{Layout, alloc, dealloc, handle_alloc_error};
use std::ptr::NonNull;

/// Alignment of a block: the size of an x86-64 or AArch64 huge page.
const HUGE_PAGE: usize = 2 << 20;

/// Types whose all-zero bytes are a valid value (atomics and arrays of them, integers, moves).
///
/// # Safety
/// An implementor must be valid when every byte is zero and must need no drop.
pub unsafe trait Zeroable: Sync {}

/// A zeroed, huge-page-aligned array of `T`.
pub struct Block<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
}

// SAFETY: a `Block` owns its memory alone (like a `Box<[T]>`), and `T: Sync` makes shared
// references to its values safe to use from several threads.
unsafe impl<T: Zeroable> Send for Block<T> {}
// SAFETY: as above; `&Block` hands out only `&[T]`.
unsafe impl<T: Zeroable> Sync for Block<T> {}

impl<T: Zeroable> Block<T> {
    /// A block of `len` zeroed values (`len` at least 1).
    pub fn new(len: usize) -> Block<T> {
        let len = len.max(1);
        let size = len.checked_mul(std::mem::size_of::<T>()).expect("table size overflows");
        // From a quarter of a huge page, whole huge pages (the tail unused): a table read at
        // random then takes one TLB entry for each 2 MiB instead of one for each 4 KiB.
        let (size, align) = if size >= HUGE_PAGE / 4 {
            (size.div_ceil(HUGE_PAGE) * HUGE_PAGE, HUGE_PAGE)
        } else {
            (size, std::mem::align_of::<T>())
        };
        let layout = Layout::from_size_align(size.max(1), align.max(std::mem::align_of::<T>())).expect("table layout");
        // SAFETY: the layout's size is not zero. The memory is zeroed below, after the advice:
        // zeroing first would fault it in as small pages.
        let raw = unsafe { alloc(layout) };
        let Some(ptr) = NonNull::new(raw as *mut T) else { handle_alloc_error(layout) };
        #[cfg(target_os = "linux")]
        if align == HUGE_PAGE {
            // SAFETY: the range is the block just allocated, aligned to a page; the advice
            // changes only how the kernel backs it, never its contents.
            let r = unsafe { libc::madvise(raw as *mut libc::c_void, size, libc::MADV_HUGEPAGE) };
            if r != 0 {
                log::debug!("madvise(MADV_HUGEPAGE) refused for the hash table");
            }
        }
        // SAFETY: `raw` is the `size` bytes just allocated, written before any read.
        unsafe { std::ptr::write_bytes(raw, 0, size) };
        Block { ptr, len, layout }
    }

    /// The values.
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` values of `T`, zeroed at allocation (a valid value
        // by `Zeroable`) and changed since only through `T`'s own interior mutability or
        // through `deref_mut` (whose `&mut self` rules out this borrow meanwhile); the block
        // lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

/// Asks the processor to start loading the cache line of `value`, so that a read soon after
/// finds it there (a hint: it changes nothing that is read).
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` never faults and reads nothing into the program; the pointer
    // comes from a reference anyway. SSE is part of x86_64.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(value as *const T as *const i8)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

impl<T: Zeroable> std::ops::Deref for Block<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Zeroable> std::ops::DerefMut for Block<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as `as_slice`; `&mut self` makes this the only reference into the block.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

// SAFETY: integers are valid when zero and need no drop.
unsafe impl Zeroable for u64 {}
// SAFETY: as above.
unsafe impl Zeroable for i32 {}
// SAFETY: as above.
unsafe impl Zeroable for i16 {}
// SAFETY: a move is one `u32`, and zero is `Move::NONE`.
unsafe impl Zeroable for crate::moves::Move {}

impl<T: Zeroable> Drop for Block<T> {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from `alloc` with this `layout`, and `T` needs no drop.
        unsafe { dealloc(self.ptr.as_ptr() as *mut u8, self.layout) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[repr(align(64))]
    struct Line([AtomicU64; 8]);
    // SAFETY: atomics are valid when zero and need no drop.
    unsafe impl Zeroable for Line {}

    #[test]
    fn blocks_start_zeroed_are_aligned_and_writable() {
        for len in [1, 3, 8_191, 8_192, 32_768, 40_000] {
            let b: Block<Line> = Block::new(len);
            let s = b.as_slice();
            assert_eq!(s.len(), len);
            assert!(s.iter().all(|l| l.0.iter().all(|x| x.load(Ordering::Relaxed) == 0)));
            let align = if len * 64 >= HUGE_PAGE / 4 { HUGE_PAGE } else { 64 };
            assert_eq!(s.as_ptr() as usize % align, 0);
            s[len - 1].0[7].store(42, Ordering::Relaxed);
            assert_eq!(s[len - 1].0[7].load(Ordering::Relaxed), 42);
        }
    }
}
