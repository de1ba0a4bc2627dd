# shellcheck shell=bash
# Sourced by ../metope (not run on its own): multi-rank runs over MPJ Express. Uses the
# launcher's ROOT, APP_JAR_DIR, AGENT_JAR, HARNESS_JAR, USER_CP, die, java_cmd, ensure_built,
# heap_opts, device_launcher_opts and base_classpath.

# ---------------------------------------------------------------------------------------------
# Multi-rank runs over MPJ Express.
#
# Debian's mpjrun cannot start as installed (its jars' manifests name log4j and commons jars that
# are not beside them, and /usr/bin/mpjrun hard-codes MPJ_HOME), so every run gets a private
# MPJ_HOME: lib/ links to a copy of the MPJ jars plus those four under target/mpj/lib, and conf/
# holds an mpjexpress.conf with free ports, so runs never collide on MPJ's fixed defaults.
# mpjrun exits 0 whatever its ranks do, so ranks report through files in a status directory
# (org.metope.comm.RankStatus): rank-R.pid at start, rank-R.progress while communicating,
# rank-R.status at the end. The launcher watches them (mpj-status.sh), stops the run when a rank
# failed and the others do not stop, when a rank's process vanished, or when no rank made progress
# for METOPE_MPJ_STALL seconds, and derives the exit code from them.
# ---------------------------------------------------------------------------------------------
MPJ_LIB="${METOPE_MPJ_LIB:-/usr/share/mpj/lib}"
MPJ_DEPS_DIR="${METOPE_MPJ_DEPS:-/usr/share/java}"
MPJ_DEPS=(log4j-1.2.jar commons-cli.jar commons-codec.jar commons-io.jar)
RANK_MAIN="org.metope.comm.mpj.MpjRankMain"
LAUNCH_CHECK="org.metope.app.LaunchCheck"
RANK_STATUS_PROPERTY="metope.rank.statusDir"
# Multicore ranks pass messages through one in-JVM cluster (shared) or MPJ's device (mpj); see
# org.metope.comm.mpj.RankWorld.
TRANSPORT_PROPERTY="metope.mpj.transport"
# niodev's protocol switch limit in bytes (MPJ's default is 128 KiB): above it a message goes by
# rendezvous, for which niodev starts a new Java thread per message (411 thread
# starts per rank in 200 cycles of the 64^3 deck). Up to 64 MiB, messages go eagerly, written in
# the sender's call and read by the receiver's selector thread; a thread start beside a larger
# message is noise. METOPE_MPJ_PSL overrides it.
NIODEV_PSL=67108864
# JVM options of the run's helper JVMs (LaunchCheck, MPJ's starter and daemon), which run briefly or
# mostly wait: C1 only and the serial collector, so they spend less CPU compiling and collecting
# beside the ranks.
HELPER_JVM_OPTS=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC)
# The options of the JVM of the launch check (LaunchCheck), which also gets METOPE_JAVA_OPTS: the
# helper options, without the serial collector where those options (argfiles included, e.g.
# TornadoVM's) choose a collector, since a JVM given two stops at once.
check_jvm_opts() {
  case " $(expanded_java_opts) " in
    *" -XX:+Use"*"GC "*) echo "-XX:TieredStopAtLevel=1" ;;
    *) echo "${HELPER_JVM_OPTS[*]}" ;;
  esac
}
MPJ_PRIVATE_LIB=""
STOPPED=""
STOP_CODE=0
RUN_DIR=""
MPJRUN_PID=""
DAEMON_PID=""
# Set by the signal trap while watch_run waits: the signal's name and the exit code it gives.
INTERRUPTED=""
INTERRUPT_CODE=0

# Sets MPJ_PRIVATE_LIB: a copy of MPJ's jars with the dependencies their manifests name beside
# them (a manifest's Class-Path is resolved next to the real jar, so links to the jars do not do).
mpj_private_lib() {
  local lib="$ROOT/target/mpj/lib" jar
  [ -f "$MPJ_LIB/starter.jar" ] || die "MPJ Express is not installed ($MPJ_LIB/starter.jar is missing): install Debian's libmpj-java (apt-get install libmpj-java)"
  if [ ! -f "$lib/.complete" ] || [ "$MPJ_LIB/starter.jar" -nt "$lib/.complete" ]; then
    rm -rf "$lib" && mkdir -p "$lib" || die "cannot create $lib"
    cp -L "$MPJ_LIB"/*.jar "$lib/" || die "cannot copy the MPJ jars from $MPJ_LIB"
    for jar in "${MPJ_DEPS[@]}"; do
      [ -f "$MPJ_DEPS_DIR/$jar" ] || die "MPJ Express needs $MPJ_DEPS_DIR/$jar: install liblog4j1.2-java, libcommons-cli-java, libcommons-codec-java and libcommons-io-java"
      cp -L "$MPJ_DEPS_DIR/$jar" "$lib/" || die "cannot copy $MPJ_DEPS_DIR/$jar"
    done
    touch "$lib/.complete"
  fi
  MPJ_PRIVATE_LIB="$lib"
}

# True when TCP port $1 appears in no socket of this machine.
port_free() {
  local hex
  hex="$(printf ':%04X ' "$1")"
  if [ -r /proc/net/tcp ]; then
    ! grep -qi "$hex" /proc/net/tcp /proc/net/tcp6 2>/dev/null
  else
    ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
  fi
}

# A free port below the range MPJ's ranks pick theirs from (25000-40000).
pick_port() {
  local p tries
  for tries in $(seq 1 100); do
    p=$((20000 + RANDOM % 5000))
    port_free "$p" && { echo "$p"; return 0; }
  done
  return 1
}

port_listening() {
  local hex
  hex="$(printf ':%04X ' "$1")"
  grep -hi "$hex" /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk '$4 == "0A" { found = 1 } END { exit !found }'
}

# The run's MPJ_HOME with its own ports: daemon ($1), port manager ($2), mpjrun server ($3).
write_mpj_home() {
  local home="$RUN_DIR/home"
  mkdir -p "$home/conf" "$home/logs" || die "cannot create $home"
  ln -sfn "$MPJ_PRIVATE_LIB" "$home/lib"
  cat >"$home/conf/mpjexpress.conf" <<CONF
mpjexpress.mpjdaemon.port.1=$1
mpjexpress.mpjdaemon.port.2=$2
mpjexpress.mpjrun.port.1=$3
mpjexpress.mpjdaemon.loglevel=OFF
mpjexpress.mpjrun.loglevel=OFF
mpjexpress.mpi.loglevel=OFF
mpjexpress.version=0.44
mpjexpress.mpi.old.collectives=false
CONF
}

# The Java agent option for every JVM of the run (org.metope.app.launch.RunAgent): each one
# ends itself, its child processes and the run directory once this launcher's process is gone,
# whatever ended it (kill -9 included), and MPJ's sockets bind the loopback address only.
run_agent() {
  echo "-javaagent:$AGENT_JAR=launcher=$$,runDir=$RUN_DIR,loopback=true${1:+,share=$1}"
}

# The jars of class path $1 that the ranks of a multicore run share: all but the MPJ backend's
# (comm-*-mpjexpress.jar), which each rank loads with MPJ in a class loader of its own. MPJ's multicore
# starter gives every rank such a loader over the whole class path; the agent puts the shared jars
# on the JVM's class path, where those loaders look first, so every rank runs the same classes and
# the JIT compiles each hot method once instead of once per rank.
shared_jars() {
  local jar shared=""
  local IFS=:
  for jar in $1; do
    case "$jar" in
      */comm-*-mpjexpress.jar) ;;
      *) shared="${shared:+$shared:}$jar" ;;
    esac
  done
  echo "$shared"
}

# Starts an MPJ daemon for this run on port $1 (niodev needs one per machine); it listens on the
# loopback address only and lives only as long as the run (and this launcher's process).
start_daemon() {
  local java="$1" port="$2" waited
  MPJ_HOME="$RUN_DIR/home" setsid "$java" "${HELPER_JVM_OPTS[@]}" "$(run_agent)" \
    -cp "$RUN_DIR/home/lib/daemon.jar" \
    runtime.daemon.MPJDaemon "$port" >"$RUN_DIR/daemon.log" 2>&1 </dev/null &
  DAEMON_PID=$!
  for waited in $(seq 1 100); do
    port_listening "$port" && return 0
    kill -0 "$DAEMON_PID" 2>/dev/null || break
    sleep 0.1
  done
  return 1
}

# Ends process group $1 (its leader was started with setsid), or process $1 if it leads none.
stop_group() {
  local pid="$1" i
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || return 0
  for i in $(seq 1 20); do
    kill -0 -- "-$pid" 2>/dev/null || kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null
  return 0
}

mpj_cleanup() {
  local pid
  [ -n "$MPJRUN_PID" ] && stop_group "$MPJRUN_PID"
  for pid in $(live_rank_pids); do
    kill -KILL "$pid" 2>/dev/null
  done
  [ -n "$DAEMON_PID" ] && stop_group "$DAEMON_PID"
  if [ -n "$RUN_DIR" ] && [ "${METOPE_KEEP_RUN_DIR:-0}" != 1 ]; then
    rm -rf "$RUN_DIR"
  fi
  MPJRUN_PID=""
  DAEMON_PID=""
}

# Sets MPJ_NP, MPJ_DEV, MPJ_APP_CLASS and MPJ_APP_ARGS from the command line; usage errors exit 2.
parse_mpj_args() {
  MPJ_NP=""
  MPJ_DEV="multicore"
  MPJ_APP_CLASS="$MAIN_CLASS"
  MPJ_APP_ARGS=()
  while [ $# -gt 0 ]; do
    case "$1" in
      -np) [ $# -ge 2 ] || die "option -np needs a number of ranks"; MPJ_NP="$2"; shift 2 ;;
      --dev) [ $# -ge 2 ] || die "option --dev needs multicore, niodev or mpi"; MPJ_DEV="$2"; shift 2 ;;
      --class) [ $# -ge 2 ] || die "option --class needs a class name"; MPJ_APP_CLASS="$2"; shift 2 ;;
      *) MPJ_APP_ARGS+=("$1"); shift ;;
    esac
  done
  [ -n "$MPJ_NP" ] || die "options --dev and --class need -np N"
  [[ "$MPJ_NP" =~ ^[1-9][0-9]{0,3}$ ]] \
    || die "option -np = \"$MPJ_NP\": expected a number of ranks from 1 to 9999"
  case "$MPJ_DEV" in
    multicore|niodev) ;;
    *) die "option --dev = \"$MPJ_DEV\": expected multicore, niodev or mpi" ;;
  esac
  case "${METOPE_MPJ_TRANSPORT:-shared}" in
    shared|mpj) ;;
    *) die "METOPE_MPJ_TRANSPORT = \"$METOPE_MPJ_TRANSPORT\": expected shared or mpj" ;;
  esac
  local name value
  for name in METOPE_MPJ_STALL METOPE_MPJ_TIMEOUT METOPE_MPJ_GRACE; do
    value="${!name:-0}"
    [[ "$value" =~ ^[0-9]{1,9}$ ]] \
      || die "$name = \"$value\": expected a whole number of seconds from 0 to 999999999"
  done
  [[ "${METOPE_MPJ_PSL:-$NIODEV_PSL}" =~ ^[1-9][0-9]{0,9}$ ]] \
    && [ "${METOPE_MPJ_PSL:-$NIODEV_PSL}" -le 2147483647 ] \
    || die "METOPE_MPJ_PSL = \"$METOPE_MPJ_PSL\": expected a number of bytes from 1 to 2147483647"
}

# The trap of INT, TERM and HUP once RUN_DIR exists: records the signal ($1, exit code $2) for
# run_mpj, which stops the run when watch_run returns. Exiting from the trap itself would run the
# EXIT trap's cleanup inside watch_run's timed read, which bash does not survive ("longjmp causes
# uninitialized stack frame", and the run directory stays behind); before the watch, the trap
# exits at once (the EXIT trap cleans up).
on_signal() {
  INTERRUPTED="$1"
  INTERRUPT_CODE="$2"
  [ -n "$MPJRUN_PID" ] && return 0
  echo "metope: interrupted (SIG$1); stopping the MPJ run" >&2
  exit "$2"
}

# Ends the launcher with the signal's exit code when on_signal recorded one (the EXIT trap stops
# the run and removes its directory).
exit_if_interrupted() {
  [ -n "$INTERRUPTED" ] || return 0
  echo "metope: interrupted (SIG$INTERRUPTED); stopping the MPJ run" >&2
  exit "$INTERRUPT_CODE"
}

# Creates RUN_DIR with the run's MPJ_HOME on free ports and, for niodev, starts its daemon.
prepare_mpj_run() {
  local java="$1" ports=() port attempt
  RUN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/metope-mpj.XXXXXX")" || die "cannot create a run directory"
  trap mpj_cleanup EXIT
  trap 'on_signal INT 130' INT
  trap 'on_signal TERM 143' TERM
  trap 'on_signal HUP 129' HUP
  mkdir -p "$RUN_DIR/status"
  echo "localhost" >"$RUN_DIR/machines"
  for attempt in 1 2 3; do
    ports=()
    while [ ${#ports[@]} -lt 3 ]; do
      port="$(pick_port)" || die "found no free TCP ports in 20000-24999 for MPJ Express"
      [[ " ${ports[*]} " == *" $port "* ]] || ports+=("$port")
    done
    write_mpj_home "${ports[@]}"
    [ "$MPJ_DEV" != niodev ] && return 0
    start_daemon "$java" "${ports[0]}" && return 0
    stop_group "$DAEMON_PID"
    DAEMON_PID=""
  done
  cat "$RUN_DIR/daemon.log" >&2
  die "the MPJ daemon did not start (log above)"
}

# Multicore ranks share the class path's jars through the agent, which takes jars only: a class
# directory of -cp would be seen by no rank's application registry, so it is refused in one line.
refuse_class_directories() {
  local entry IFS=:
  for entry in ${USER_CP#:}; do
    [ -d "$entry" ] && die "-cp $entry: with -np N and --dev multicore give your classes as a jar (the ranks share jars only: jar cf mine.jar -C $entry .)"
  done
  return 0
}

# METOPE_JAVA_OPTS with each @FILE replaced by the file's options, one per line with "#" comments
# (as TornadoVM's tornado-argfile), "--option value" joined into "--option=value": what MPJ's
# starter takes (it passes on only options of one word and would take an @argfile for the class to
# run), and what the launch check reads to see which collector the user chose.
expanded_java_opts() {
  local word line file out=()
  for word in ${METOPE_JAVA_OPTS:-}; do
    if [ "${word#@}" = "$word" ]; then
      out+=("$word")
      continue
    fi
    file="${word#@}"
    [ -r "$file" ] || die "METOPE_JAVA_OPTS: cannot read the argfile $file"
    while IFS= read -r line || [ -n "$line" ]; do
      case "$line" in
        '' | '#'*) ;;
        --*' '*) out+=("${line/ /=}") ;;
        *) out+=("$line") ;;
      esac
    done <"$file"
  done
  echo "${out[*]}"
}

# ./metope -np N [--dev D] [--class C] ARGS...: runs C (the Metope entry by default) on N ranks.
run_mpj() {
  local java cp jar code starter_opts
  parse_mpj_args "$@"
  starter_opts="$(expanded_java_opts)" || exit $?
  [ -f "$MPJ_LIB/starter.jar" ] || die "MPJ Express is not installed ($MPJ_LIB/starter.jar is missing): install Debian's libmpj-java (apt-get install libmpj-java)"
  command -v setsid >/dev/null || die "setsid (util-linux) is needed to run MPJ Express"
  ensure_built
  grep -qa "org/metope/comm/mpj/MpjRankMain.class" "$APP_JAR_DIR"/lib/comm-*.jar 2>/dev/null \
    || die "this build has no MPJ backend (it was built before libmpj-java was installed): rebuild with 'mvn -B -DskipTests package'"
  java="$(java_cmd)"
  export PATH="$(dirname "$java"):$PATH"
  mpj_private_lib
  cp="$APP_JAR_DIR/examples-0.1.0-SNAPSHOT.jar"
  for jar in "$APP_JAR_DIR"/lib/*.jar; do
    cp="$cp:$jar"
  done
  cp="$cp$USER_CP:$HARNESS_JAR"
  [ "$MPJ_DEV" = multicore ] && refuse_class_directories
  if [ "$MPJ_APP_CLASS" = "$MAIN_CLASS" ]; then
    # The checks every rank would make first, once, so a mistake is one line and no rank starts.
    # shellcheck disable=SC2086
    "$java" $(check_jvm_opts) ${METOPE_JAVA_OPTS:-} -cp "$cp" "$LAUNCH_CHECK" "$MPJ_NP" \
      "${MPJ_APP_ARGS[@]}" </dev/null \
      || exit $?
  fi
  prepare_mpj_run "$java"
  device_launcher_opts
  # multicore: the ranks are threads of one JVM, their messages in-JVM unless
  # METOPE_MPJ_TRANSPORT=mpj; niodev: one JVM per rank on this machine.
  local heap_share=1 jvm_ranks="$MPJ_NP"
  [ "$MPJ_DEV" = niodev ] && heap_share="$MPJ_NP" && jvm_ranks=1

  local share=""
  [ "$MPJ_DEV" = multicore ] && share="$(shared_jars "$cp")"

  # shellcheck disable=SC2086
  MPJ_HOME="$RUN_DIR/home" setsid "$java" "${HELPER_JVM_OPTS[@]}" "$(run_agent)" \
    -jar "$RUN_DIR/home/lib/starter.jar" \
    -np "$MPJ_NP" -dev "$MPJ_DEV" -machinesfile "$RUN_DIR/machines" \
    -psl "${METOPE_MPJ_PSL:-$NIODEV_PSL}" \
    "-D$RANK_STATUS_PROPERTY=$RUN_DIR/status" "-D$TRANSPORT_PROPERTY=${METOPE_MPJ_TRANSPORT:-shared}" \
    "$(run_agent "$share")" $(heap_opts "$heap_share") $(memory_opts "$jvm_ranks") \
    $(jit_opts) \
    $starter_opts "${DEVICE_LAUNCHER_OPTS[@]}" -cp "$cp" \
    "$RANK_MAIN" "$MPJ_APP_CLASS" "${MPJ_APP_ARGS[@]}" </dev/null &
  MPJRUN_PID=$!
  STOPPED=""
  watch_run "$MPJ_NP"
  exit_if_interrupted
  if [ -n "$STOPPED" ]; then
    touch "$RUN_DIR/stopped"
    stop_group "$MPJRUN_PID"
  fi
  wait "$MPJRUN_PID" 2>/dev/null
  exit_if_interrupted
  MPJRUN_PID=""
  code="$(mpj_exit_code "$MPJ_NP")"
  exit "$code"
}
