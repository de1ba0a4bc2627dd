# shellcheck shell=bash
# Sourced by ../metope (not run on its own): the MPI device (module comm-mpi). Uses the launcher's
# ROOT, MAIN_CLASS, USER_CP, die, java_cmd, ensure_built, base_classpath, heap_opts, memory_opts,
# jit_opts, device_launcher_opts, and check_jvm_opts and LAUNCH_CHECK from launcher/mpj.sh.

# ---------------------------------------------------------------------------------------------
# The MPI device: each rank is a JVM that mpirun (or srun) starts, talking through Open MPI's
# libmpi by Java's Foreign Function & Memory API, so the ranks need a JDK 22 or newer (Temurin 25
# where installed) while the rest of Metope builds and runs on JDK 17. The device's classes are
# built by a second Maven run with that JDK (the reactor's profile mpi-device adds the module
# there). Two ways in:
#   mpirun -np N ./metope -i DECK       every rank runs this script, which sees mpirun's variables
#                                       (OMPI_COMM_WORLD_SIZE; PMIX_RANK under srun; or
#                                       METOPE_DEV=mpi) and starts the rank's JVM
#   ./metope -np N --dev mpi -i DECK    checks the deck once, then runs the line above with
#                                       mpirun's -q (no banners) and the flags this machine needs
# A failing rank's line is printed once, by rank 0, and MPI_Abort ends every rank with its code
# (org.metope.comm.mpi.MpiFailures).
# ---------------------------------------------------------------------------------------------
MPI_CLASSES="$ROOT/comm-mpi/target/classes"
# The device's jar: an AOT cache takes jars only, so ranks use it where the build made it.
MPI_JAR="$ROOT/comm-mpi/target/comm-mpi-0.1.0-SNAPSHOT.jar"
# The device's downcalls need native access; an AOT cache is trained with the same option.
MPI_NATIVE_ACCESS="--enable-native-access=ALL-UNNAMED"
MPI_STAMP="$ROOT/target/metope-mpi-build.stamp"
MPI_BUILD_LOG="$ROOT/target/metope-mpi-build.log"
MPI_RANK_MAIN="org.metope.comm.mpi.MpiRankMain"
# The entry of the ranks' AOT cache training: it links the device's downcalls before the training,
# so the cache holds the linker's classes (without them a rank spent about 60 ms more to link).
MPI_AOT_ENTRY="org.metope.comm.mpi.MpiAotTraining"
MPI_JAVA_HOME=""
# Where JDKs are looked for, and the mpirun to use (tests point them elsewhere).
JVM_DIR="${METOPE_JVM_DIR:-/usr/lib/jvm}"
MPIRUN="${METOPE_MPIRUN:-mpirun}"
NO_MPI_JDK="the mpi device needs a JDK 22 or newer (Java's Foreign Function & Memory API) and none was found in METOPE_MPI_JAVA_HOME, JAVA_HOME or /usr/lib/jvm: install one (e.g. Temurin 25) or set METOPE_MPI_JAVA_HOME"
NO_MPIRUN="the mpi device needs Open MPI's mpirun on PATH: install Open MPI (Debian: apt-get install openmpi-bin libopenmpi-dev)"

# True when this process is a rank that mpirun or srun started (or METOPE_DEV=mpi says so).
under_mpi_launcher() {
  [ -n "${OMPI_COMM_WORLD_SIZE:-}" ] || [ -n "${PMIX_RANK:-}" ] || [ "${METOPE_DEV:-}" = mpi ]
}

# The rank number the launcher gave this process (0 when none).
launcher_rank() {
  echo "${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-${SLURM_PROCID:-0}}}"
}

# The number of ranks of the job, and of them on this node (heap share), from mpirun or Slurm.
launcher_size() {
  echo "${OMPI_COMM_WORLD_SIZE:-${PMIX_SIZE:-${SLURM_NTASKS:-1}}}"
}
launcher_local_size() {
  local n="${OMPI_COMM_WORLD_LOCAL_SIZE:-${SLURM_NTASKS_PER_NODE:-1}}"
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || n=1
  echo "$n"
}

# Like die, but only rank 0 prints: N ranks failing alike say it once.
die_rank0() {
  [ "$(launcher_rank)" = 0 ] && echo "metope: $*" >&2
  exit 2
}

# The major version of the JDK in directory $1, from its release file (no process started).
jdk_major() {
  local line
  line="$(grep -m1 '^JAVA_VERSION=' "$1/release" 2>/dev/null)" || return 1
  line="${line#JAVA_VERSION=\"}"
  echo "${line%%[.\"]*}"
}

# Sets MPI_JAVA_HOME to the first JDK 22 or newer of METOPE_MPI_JAVA_HOME, JAVA_HOME, Temurin 25
# and /usr/lib/jvm; returns 1 when there is none.
find_mpi_jdk() {
  local dir major
  for dir in "${METOPE_MPI_JAVA_HOME:-}" "${JAVA_HOME:-}" "$JVM_DIR/temurin-25-jdk-amd64" \
      "$JVM_DIR"/*; do
    [ -n "$dir" ] && [ -x "$dir/bin/java" ] && [ -x "$dir/bin/javac" ] || continue
    major="$(jdk_major "$dir")" || continue
    if [[ "$major" =~ ^[0-9]+$ ]] && [ "$major" -ge 22 ]; then
      MPI_JAVA_HOME="$dir"
      return 0
    fi
  done
  return 1
}

# True when the device's classes are missing or older than comm's or comm-mpi's sources.
mpi_needs_build() {
  [ -f "$MPI_STAMP" ] && [ -d "$MPI_CLASSES/org" ] || return 0
  [ -n "$(find "$ROOT/pom.xml" "$ROOT/comm/pom.xml" "$ROOT/comm/src/main" "$ROOT/comm-mpi/pom.xml" \
    "$ROOT/comm-mpi/src/main" -newer "$MPI_STAMP" -print -quit 2>/dev/null)" ]
}

# Builds Metope (JDK 17 reactor) and the device (JDK 22+) when sources changed. Ranks under
# mpirun all get here at once, so they build under a lock: the first builds, the others find the
# build done.
ensure_mpi_built() {
  if [ "${METOPE_SKIP_BUILD:-0}" = 1 ]; then
    ensure_built
    [ -d "$MPI_CLASSES/org" ] \
      || die_rank0 "METOPE_SKIP_BUILD=1 but $MPI_CLASSES is missing: build first"
    return 0
  fi
  mkdir -p "$ROOT/target"
  local lock=""
  if command -v flock >/dev/null; then
    exec {lock}>"$ROOT/target/metope-build.lock"
    flock "$lock"
  fi
  ensure_built
  if mpi_needs_build; then
    command -v mvn >/dev/null || die_rank0 "Maven (mvn) is not on PATH: install Maven 3.8 or newer"
    echo "metope: building the mpi device with $MPI_JAVA_HOME (log in target/metope-mpi-build.log)..." >&2
    if ! (cd "$ROOT" && JAVA_HOME="$MPI_JAVA_HOME" mvn -B -DskipTests -pl comm-mpi -am package \
        >"$MPI_BUILD_LOG" 2>&1); then
      cat "$MPI_BUILD_LOG" >&2
      die_rank0 "building the mpi device failed (log above, also in $MPI_BUILD_LOG)"
    fi
    touch "$MPI_STAMP"
  fi
  [ -n "$lock" ] && exec {lock}>&-
  return 0
}

# The physical cores of this machine, which Open MPI counts as its slots (hardware threads are not
# slots): lscpu's distinct core and socket pairs, else nproc.
physical_cores() {
  local n
  n="$(lscpu -p=Core,Socket 2>/dev/null | grep -v '^#' | sort -u | wc -l)"
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || n="$(nproc 2>/dev/null || echo 1)"
  echo "$n"
}

# The checks every rank would make first (org.metope.app.LaunchCheck), once, for $1 ranks.
launch_check() {
  local ranks="$1"
  shift
  # shellcheck disable=SC2086
  "$(java_cmd)" $(check_jvm_opts) ${METOPE_JAVA_OPTS:-} -cp "$(base_classpath)$USER_CP" \
    "$LAUNCH_CHECK" "$ranks" "$@" </dev/null
}

# One rank under mpirun or srun: ./metope [--class NAME] ARGS... becomes this rank's JVM. Rank 0
# checks the deck first (unless ./metope --dev mpi did): a mistake is one line, and rank 0
# leaving before MPI starts makes mpirun end the other ranks.
# The device's classes on a rank's class path: its jar where built, else its class directory.
mpi_classes() {
  if [ -f "$MPI_JAR" ]; then echo "$MPI_JAR"; else echo "$MPI_CLASSES"; fi
}

# The AOT cache options of a rank (launcher/aot.sh), where the device's jar exists.
mpi_aot_opts() {
  [ -f "$MPI_JAR" ] && aot_opts "$MPI_JAVA_HOME/bin/java" "$(base_classpath):$MPI_JAR" \
    "$MPI_NATIVE_ACCESS" "$MPI_AOT_ENTRY"
  return 0
}

run_mpi_rank() {
  local class="$MAIN_CLASS" args=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --class)
        [ $# -ge 2 ] || die_rank0 "option --class needs a class name"
        class="$2"
        shift 2
        ;;
      -np|--dev) die_rank0 "under mpirun or srun the MPI launcher starts the ranks: leave out $1 (e.g. mpirun -np 4 ./metope -i DECK)" ;;
      *) args+=("$1"); shift ;;
    esac
  done
  find_mpi_jdk || die_rank0 "$NO_MPI_JDK"
  ensure_mpi_built
  if [ "$class" = "$MAIN_CLASS" ] && [ "${METOPE_LAUNCH_CHECKED:-0}" != 1 ] \
      && [ "$(launcher_rank)" = 0 ]; then
    launch_check "$(launcher_size)" "${args[@]}" || exit $?
  fi
  device_launcher_opts
  # shellcheck disable=SC2086
  exec "$MPI_JAVA_HOME/bin/java" "$MPI_NATIVE_ACCESS" \
    $(heap_opts "$(launcher_local_size)") $(memory_opts) $(jit_opts) \
    $(mpi_aot_opts) ${METOPE_JAVA_OPTS:-} "${DEVICE_LAUNCHER_OPTS[@]}" \
    -cp "$(base_classpath):$(mpi_classes)$USER_CP" "$MPI_RANK_MAIN" "$class" "${args[@]}"
}

# The AOT cache (launcher/aot.sh) of $1 ranks, trained here because the ranks are started with
# METOPE_SKIP_BUILD and cannot train one. A cache is per JIT policy and the ranks' is not this
# process's: mpirun binds each of two ranks to a core, and N ranks on N cores or fewer have one
# each, so they run the one-CPU policy while this process sees every CPU; a rank given the cache
# of the two-CPU policy compiles what that training compiled (C2: 0.34 - 0.41 s of each rank's
# CPU on Parthenon's 2D adaptive deck, against 0.25 - 0.27 s with its own). So where the ranks
# have one CPU, the training runs on one CPU of this process's, as they do.
ensure_rank_aot_cache() {
  local cpu=""
  if [ "$1" -le 2 ] || [ "$1" -ge "$(physical_cores)" ]; then
    cpu="$(sed -nE 's/^Cpus_allowed_list:[[:space:]]*([0-9]+).*/\1/p' /proc/self/status 2>/dev/null)"
  fi
  (
    [ -n "$cpu" ] && command -v taskset >/dev/null && taskset -p -c "$cpu" "$BASHPID" >/dev/null
    ensure_aot_cache "$MPI_JAVA_HOME/bin/java" "$(base_classpath):$MPI_JAR" "$MPI_NATIVE_ACCESS" \
      "$MPI_AOT_ENTRY"
  )
}

# ./metope -np N --dev mpi [--class C] ARGS...: mpirun -np N ./metope ARGS... on this machine (or
# the hosts of the Slurm allocation mpirun runs in), with -q, and --allow-run-as-root as root and
# --oversubscribe beyond this machine's cores; METOPE_MPIRUN_OPTS adds mpirun options.
run_mpi_launch() {
  local np="" class="" args=() flags=(-q)
  while [ $# -gt 0 ]; do
    case "$1" in
      -np) [ $# -ge 2 ] || die "option -np needs a number of ranks"; np="$2"; shift 2 ;;
      --dev) shift 2 ;;
      --class) [ $# -ge 2 ] || die "option --class needs a class name"; class="$2"; shift 2 ;;
      *) args+=("$1"); shift ;;
    esac
  done
  [ -n "$np" ] || die "option --dev mpi needs -np N"
  [[ "$np" =~ ^[1-9][0-9]{0,3}$ ]] || die "option -np = \"$np\": expected a number of ranks from 1 to 9999"
  find_mpi_jdk || die "$NO_MPI_JDK"
  command -v "$MPIRUN" >/dev/null || die "$NO_MPIRUN"
  ensure_mpi_built
  [ -f "$MPI_JAR" ] && ensure_rank_aot_cache "$np"
  if [ -z "$class" ] || [ "$class" = "$MAIN_CLASS" ]; then
    launch_check "$np" "${args[@]}" || exit $?
  fi
  [ "$(${METOPE_ID:-id} -u)" = 0 ] && flags+=(--allow-run-as-root)
  [ "$np" -gt "$(physical_cores)" ] && flags+=(--oversubscribe)
  local rank_args=()
  [ -n "$class" ] && rank_args+=(--class "$class")
  [ -n "$USER_CP" ] && rank_args+=(-cp "${USER_CP#:}")
  # shellcheck disable=SC2086
  exec "$MPIRUN" "${flags[@]}" -np "$np" -x METOPE_SKIP_BUILD=1 -x METOPE_LAUNCH_CHECKED=1 \
    ${METOPE_MPIRUN_OPTS:-} "$ROOT/metope" "${rank_args[@]}" "${args[@]}"
}

# ./metope test, after the JDK 17 suite passed: the device's own tests (real mpirun processes),
# built and run with the JDK 22+; where that JDK or Open MPI is missing, one line says they were
# not run and why. Returns Maven's exit status.
run_mpi_tests() {
  if ! find_mpi_jdk; then
    echo "metope: the MPI device's tests were NOT run: $NO_MPI_JDK" >&2
    return 0
  fi
  if ! command -v "$MPIRUN" >/dev/null; then
    echo "metope: the MPI device's tests were NOT run: $NO_MPIRUN" >&2
    return 0
  fi
  echo "metope: the MPI device's tests, with $MPI_JAVA_HOME and $("$MPIRUN" --version 2>/dev/null | head -1)" >&2
  # The tests' ranks (METOPE_SKIP_BUILD=1) take the device's jar where it exists, but Maven tests
  # before it packages: a jar of an earlier build would be tested instead of these sources. Without
  # it the ranks use the classes this run compiles; the run packages a new jar after the tests.
  rm -f "$MPI_JAR"
  (cd "$ROOT" && JAVA_HOME="$MPI_JAVA_HOME" mvn -B -pl comm-mpi -am verify \
    -Dtest='org/metope/comm/mpi/**/*Test.java' -Dsurefire.failIfNoSpecifiedTests=false) \
    && touch "$MPI_STAMP"
}

# ./metope bench pingpong: latency and bandwidth between two ranks on each device (MPJ multicore,
# MPJ niodev, MPI), then the same ping-pong in C over Open MPI (compiled here with mpicc), as one
# table, and the MPI device's figures as multiples of C's. A device that cannot run shows its
# output and says why; the others still run. The JVMs run with METOPE_JIT=peak unless it is set:
# the bench measures the transport warm, and on a rank with one CPU (mpirun binds each to a core)
# the default policy compiles the message path with C2 only after about 200,000 messages, later
# than the bench ends. Its rows send between the communicator's message buffers; below the table,
# each device's same ping-pong between heap arrays, and between heap arrays copied through message
# buffers (the boundary exchange's path on the mpi device).
PINGPONG_ROW='^(communicator benchmark|C ping-pong \(mpicc\)) on (.*): latency ([0-9.]+) us .*bandwidth ([0-9.]+) MiB/s'
run_pingpong_bench() {
  local dev bench="org.metope.comm.CommunicatorBenchmark" exe="$ROOT/target/pingpong-c" flags=(-q)
  local out mpi_row="" c_row="" arrays="" copied=""
  echo "ping-pong between 2 ranks (median of 5 runs, METOPE_JIT=${METOPE_JIT:-peak}): latency of one double (half a round trip), bandwidth of 1 MiB messages"
  printf '%-66s %12s %17s %14s\n' "backend, ranks" "latency (us)" "bandwidth (MiB/s)" \
    "peak RSS (MB)"
  for dev in multicore niodev mpi; do
    if out="$(METOPE_JIT="${METOPE_JIT:-peak}" "$ROOT/metope" -np 2 --dev "$dev" --class "$bench" 2>&1)" \
        && grep -qE "$PINGPONG_ROW" <<<"$out"; then
      pingpong_row <<<"$out"
      arrays+="$(sed -nE "s#^  the same between heap arrays: #  $dev: #p" <<<"$out")"$'\n'
      copied+="$(sed -nE "s#^  the same between heap arrays copied through message buffers: #  $dev: #p" <<<"$out")"$'\n'
      [ "$dev" = mpi ] && mpi_row="$(grep -m1 -E "$PINGPONG_ROW" <<<"$out")"
    else
      echo "$out" >&2
      echo "metope: bench pingpong: the $dev device failed (above)" >&2
    fi
  done
  command -v mpicc >/dev/null || { echo "metope: bench pingpong: no mpicc, so no C ping-pong (install libopenmpi-dev)" >&2; return 0; }
  mkdir -p "$ROOT/target"
  mpicc -O2 -o "$exe" "$ROOT/comm-mpi/src/bench/c/pingpong.c" \
    || { echo "metope: bench pingpong: mpicc failed on comm-mpi/src/bench/c/pingpong.c" >&2; return 1; }
  [ "$(${METOPE_ID:-id} -u)" = 0 ] && flags+=(--allow-run-as-root)
  [ "$(physical_cores)" -ge 2 ] || flags+=(--oversubscribe)
  # shellcheck disable=SC2086
  out="$("$MPIRUN" "${flags[@]}" -np 2 ${METOPE_MPIRUN_OPTS:-} "$exe" 2>&1)" \
    || { echo "$out" >&2; echo "metope: bench pingpong: the C ping-pong failed (above)" >&2; return 1; }
  pingpong_row <<<"$out"
  c_row="$(grep -m1 -E "$PINGPONG_ROW" <<<"$out")"
  [ -n "$mpi_row" ] && [ -n "$c_row" ] || return 0
  printf '%s\n%s\n' "$mpi_row" "$c_row" | sed -nE "s#$PINGPONG_ROW.*#\\3 \\4#p" \
    | awk 'NR == 1 { l = $1; b = $2 } NR == 2 { printf "the mpi device against C over the same Open MPI: latency %.2fx, bandwidth %.2fx\n", l / $1, b / $2 }'
  printf 'the same between heap arrays (staged by each request on the mpi device):\n%s' "$arrays"
  printf 'the same between heap arrays copied through message buffers (the boundary exchange on the mpi device):\n%s' "$copied"
}

# The table row of each ping-pong line on standard input (CommunicatorBenchmark's, or pingpong.c's),
# with the largest rank's peak resident memory ("?" where the line has none).
pingpong_row() {
  sed -nE "s#$PINGPONG_ROW.*peak RSS ([0-9]+) MB.*#\\1|\\2|\\3|\\4|\\5#p; t; s#$PINGPONG_ROW.*#\\1|\\2|\\3|\\4|?#p" \
    | awk -F'|' '{ name = $1 ~ /^C / ? "C over " $2 " (mpicc -O2)" : $2; printf "%-66s %12s %17s %14s\n", name, $3, $4, $5 }'
}
