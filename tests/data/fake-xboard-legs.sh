#!/usr/bin/env bash
# A scripted XBoard engine for tests/selfplay.rs: on its first `go` it sends a lion double
# move one leg per line, as HaChu does (`move g5g6,` then `move g6g5`: take on g6 and return),
# and resigns on its second.
n=0
while read -r line; do
  case "$line" in
    protover*) echo "feature usermove=1 ping=1 setboard=1 memory=1 done=1" ;;
    ping*) echo "pong ${line#ping }" ;;
    go)
      n=$((n + 1))
      if [ "$n" -eq 1 ]; then
        echo "move g5g6,"
        echo "move g6g5"
      else
        echo "resign"
      fi
      ;;
    quit) exit 0 ;;
  esac
done
