# Sourced by the bench scripts. files_up_to <rtl-dir> <module>: sets the array `files` to every
# file of <rtl-dir>/hpcc_nic.f up to and including <module>.v, in compile order.
files_up_to() {
  files=()
  local f
  while read -r f; do
    case "$f" in ''|//*|\#*) continue ;; esac
    files+=("$1/$f")
    [ "$f" = "$2.v" ] && break
  done < "$1/hpcc_nic.f"
}
