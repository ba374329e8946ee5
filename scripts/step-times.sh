# Sourced by scripts/run.sh and scripts/test.sh: each step's time, and all of them when the script
# ends (also when a step fails). step_done NAME closes a step; with STEP_TIMES_EACH=1 each step's
# time is also printed as it ends.
steps=()
step_start=$SECONDS
script_start=$SECONDS
step_done() {  # NAME
  local seconds=$((SECONDS - step_start))
  steps+=("$(printf '%-24s %5d s' "$1" "$seconds")")
  if [[ ${STEP_TIMES_EACH:-0} == 1 ]]; then echo "== time: $1 $seconds s"; fi
  step_start=$SECONDS
}
step_summary() {
  local status=$?
  local failed=""
  ((status)) && failed=" (stopped by a failure, exit $status)"
  # STEP_TIMES_ONE_LINE=1 (scripts/run.sh, whose output a user reads): one line.
  if [[ ${STEP_TIMES_ONE_LINE:-0} == 1 ]]; then
    local line="" step
    for step in "${steps[@]}"; do
      line+="${line:+, }$(echo "$step" | tr -s ' ')"
    done
    echo "step times$failed: ${line:+$line; }total $((SECONDS - script_start)) s"
    return
  fi
  echo "== step times$failed"
  ((${#steps[@]})) && printf '   %s\n' "${steps[@]}"
  echo "   total                    $((SECONDS - script_start)) s"
}
trap step_summary EXIT
