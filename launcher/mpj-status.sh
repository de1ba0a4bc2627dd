# shellcheck shell=bash
# Sourced by ../metope (not run on its own), beside mpj.sh: how the launcher watches a multi-rank
# MPJ run through the files its ranks write in "$RUN_DIR/status" (org.metope.comm.RankStatus):
# rank-R.pid at start, rank-R.progress while communicating, rank-R.status at the end. It finds a
# failed rank, a rank whose process vanished, a stall and a time-out, and derives the run's exit
# code. Uses mpj.sh's RUN_DIR, MPJRUN_PID, INTERRUPTED, STOPPED and STOP_CODE.

# Rank processes of this run still alive (recognised by the status directory on their command line).
live_rank_pids() {
  local f pid
  for f in "$RUN_DIR"/status/rank-*.pid; do
    [ -f "$f" ] || continue
    pid="$(cat "$f" 2>/dev/null)"
    [ -n "$pid" ] && grep -qa "$RUN_DIR/status" "/proc/$pid/cmdline" 2>/dev/null && echo "$pid"
  done
}

# Sets $2 to the value of key $1 in status file $3 (empty when absent), with builtins only.
read_status_field() {
  local key="$1" __out="$2" k v
  printf -v "$__out" ''
  [ -f "$3" ] || return 0
  while IFS='=' read -r k v; do
    [ "$k" = "$key" ] && { printf -v "$__out" '%s' "$v"; return 0; }
  done <"$3"
}

# Sets NEWEST to the newest time (epoch seconds) any rank started or made progress, or $1 when
# none did yet: one stat process for all the files.
last_progress() {
  local t files=()
  NEWEST="$1"
  for t in "$RUN_DIR"/status/rank-*.pid "$RUN_DIR"/status/rank-*.progress; do
    [ -f "$t" ] && files+=("$t")
  done
  [ ${#files[@]} -gt 0 ] || return 0
  while read -r t; do
    [ "${t:-0}" -gt "$NEWEST" ] && NEWEST="$t"
  done < <(stat -c %Y "${files[@]}" 2>/dev/null)
}

# Sets FAILING to why the run must fail now (a failed rank, or a rank whose process vanished),
# or to nothing; builtins only.
rank_failure() {
  local np="$1" r f pid exit_code
  FAILING=""
  for ((r = 0; r < np; r++)); do
    f="$RUN_DIR/status/rank-$r.status"
    if [ -f "$f" ]; then
      read_status_field exit exit_code "$f"
      [ "$exit_code" != 0 ] && { FAILING="rank $r failed"; return; }
    elif [ -f "$RUN_DIR/status/rank-$r.pid" ]; then
      pid=""
      read -r pid <"$RUN_DIR/status/rank-$r.pid" 2>/dev/null
      [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null \
        && { FAILING="the process of rank $r ended without reporting"; return; }
    fi
  done
}

# Watches the running mpjrun until it ends (in this shell, which reaps it); sets STOPPED to the
# reason when the run failed and did not end, stalled or timed out. The ranks share the machine
# with this loop, so it starts no process but one stat per tenth of the stall limit (at most one
# a second; the sleep is a read with a time-out on a FIFO that nobody writes, the clock is
# printf's): a multicore run of 20 cycles on 2 cores spent more CPU in this loop's sleeps,
# dates, cats, seds and stats than its ranks did in cycles 5 to 20.
watch_run() {
  local np="$1" stall="${METOPE_MPJ_STALL:-300}" timeout="${METOPE_MPJ_TIMEOUT:-0}"
  local grace="${METOPE_MPJ_GRACE:-5}" started now failing="" failed_at=0 quiet never=""
  local next_stall_check=0 stall_period=$((stall / 10))
  [ "$stall_period" -ge 1 ] || stall_period=1
  printf -v started '%(%s)T' -1
  mkfifo "$RUN_DIR/never" 2>/dev/null && exec {never}<>"$RUN_DIR/never"
  while kill -0 "$MPJRUN_PID" 2>/dev/null; do
    if [ -n "$never" ]; then
      read -r -t 0.5 -u "$never" _ || true
    else
      sleep 0.5
    fi
    [ -n "$INTERRUPTED" ] && break
    printf -v now '%(%s)T' -1
    if [ -z "$failing" ]; then
      rank_failure "$np"
      failing="$FAILING"
      [ -n "$failing" ] && failed_at="$now"
    fi
    if [ -n "$failing" ] && [ $((now - failed_at)) -ge "$grace" ]; then
      STOPPED="$failing and the other ranks did not stop within ${grace} s"
      STOP_CODE=1
      break
    fi
    if [ "$stall" -gt 0 ] && [ "$now" -ge "$next_stall_check" ]; then
      next_stall_check=$((now + stall_period))
      last_progress "$started"
      quiet=$((now - NEWEST))
      if [ "$quiet" -ge "$stall" ]; then
        STOPPED="no rank made communication progress for ${quiet} s (METOPE_MPJ_STALL=$stall)"
        STOP_CODE=124
        break
      fi
    fi
    if [ "$timeout" -gt 0 ] && [ $((now - started)) -ge "$timeout" ]; then
      STOPPED="the run exceeded METOPE_MPJ_TIMEOUT=$timeout s"
      STOP_CODE=124
      break
    fi
  done
  [ -n "$never" ] && exec {never}<&-
  return 0
}

# The run's exit code from the ranks' status files; explains a failure on standard error. The
# earliest-written FAILED or ENDED status names the cause; ranks stopped by the cause report later,
# and statuses written after this script stopped the run (file "stopped") are its consequences.
mpj_exit_code() {
  local np="$1" r f code=0 cause="" missing=() stamp stop="" outcome message
  # Statuses written after the stop, or in the same clock tick (a rank killed at once may write
  # its status within the tick that marked the stop), are its consequences.
  [ -f "$RUN_DIR/stopped" ] && stop="$(find "$RUN_DIR/stopped" -printf '%T@')"
  while read -r stamp f; do
    if [ -n "$stop" ] && awk -v a="$stamp" -v b="$stop" 'BEGIN { exit !(a >= b) }'; then
      continue
    fi
    read_status_field outcome outcome "$f"
    case "$outcome" in
      FAILED|ENDED) cause="$f"; break ;;
    esac
  done < <(find "$RUN_DIR/status" -name 'rank-*.status' -printf '%T@ %p\n' 2>/dev/null \
    | sort -n)
  if [ -n "$cause" ]; then
    r="${cause##*/rank-}"
    read_status_field exit code "$cause"
    read_status_field message message "$cause"
    echo "metope: rank ${r%.status} failed (exit $code): $message" >&2
  fi
  if [ -n "$STOPPED" ]; then
    echo "metope: stopped the MPJ run: $STOPPED" >&2
    [ "$code" = 0 ] && code="$STOP_CODE"
  fi
  for ((r = 0; r < np; r++)); do
    f="$RUN_DIR/status/rank-$r.status"
    if [ ! -f "$f" ]; then
      missing+=("$r")
    elif [ "$code" = 0 ]; then
      read_status_field exit code "$f"
    fi
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "metope: rank(s) ${missing[*]} of $np ended without reporting a status (killed)" >&2
    [ "$code" = 0 ] && code=1
  fi
  echo "$code"
}
