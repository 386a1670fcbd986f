# shellcheck shell=bash
# Stand-in for nixpkgs' makeWrapper: a shell script wrapper; knows --add-flags, --prefix/--suffix
# VAR SEP VALUE, --set and --set-default VAR VALUE.
makeWrapper() {
  local program=$1 wrapper=$2 flags="" lines=""
  shift 2
  while [ $# -gt 0 ]; do
    case $1 in
      --add-flags) flags="$flags $2"; shift 2 ;;
      --prefix) lines="$lines"$'\n'"export $2=$4\${$2:+$3\$$2}"; shift 4 ;;
      --suffix) lines="$lines"$'\n'"export $2=\${$2:+\$$2$3}$4"; shift 4 ;;
      --set) lines="$lines"$'\n'"export $2=$(printf %q "$3")"; shift 3 ;;
      --set-default) lines="$lines"$'\n'"export $2=\${$2-$(printf %q "$3")}"; shift 3 ;;
      *) echo "makeWrapper stand-in: unknown flag $1" >&2; return 1 ;;
    esac
  done
  mkdir -p "$(dirname "$wrapper")"
  printf '#!/bin/bash%s\nexec %q%s "$@"\n' "$lines" "$program" "$flags" > "$wrapper"
  chmod +x "$wrapper"
}
