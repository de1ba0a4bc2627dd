# shellcheck shell=bash
# Ahead-of-time caches (JDK 25's AOT cache, JEP 483/514/515) for JVMs of release 25 or newer,
# sourced by ./metope. A cache holds the classes a run loads, already parsed and linked, and the
# method profiles of a training run, so a JVM starts with what a one-core rank would otherwise
# spend its first cycles on: loading classes and profiling the kernels in the interpreter before
# the JIT compiles them. It is trained once per build and class path: the first run on such a JVM
# after a build trains it (AOT_TRAINING_CLASS: in one JVM, 200 cycles of the shipped 2D adaptive
# deck with an HDF5 output, then 40 cycles of the shipped 64^3 deck with its HDF5 output, under the
# build lock, since the ranks of an mpirun start together; the mpi device's training links its
# downcalls first, launcher/mpi.sh). A JVM older than 25, a cache of another build or class path,
# or a failed training changes nothing but the start-up time: the JVM then runs without it. The
# 64^3 run in the training cut a one-CPU JVM's CPU time on 100 cycles of that deck by 5 - 20 % (a
# busy machine), and left the 2D deck's the same within noise.
# There is one cache per JIT policy (jit_policy), trained under that policy and the CPUs of the run
# that trains it: the JIT follows the training's compilations, so a method the training left to C1
# is compiled with counters only (tier 2) instead of full profiling (tier 3), and one it took to C2
# goes there early. A one-CPU JVM (auto-one-cpu) with a cache trained on two CPUs compiled about
# 250 methods with C2 on the 2D adaptive deck; with its own cache, about 170 (pinned: 0.45 against
# 0.23 s of C2's CPU, 2.3 against 2.0 s in all). Needs from ./metope: ROOT, STAMP, memory_opts,
# jit_opts, jit_policy.

AOT_TRAINING_CLASS=org.metope.app.AotTraining

# The major release of the JVM $1 (a java executable), from its JDK's release file (no JVM is
# started), or nothing when it cannot be told.
java_release() {
  local home line
  home="$(dirname "$(dirname "$(readlink -f "$1")")")"
  line="$(grep -m1 '^JAVA_VERSION=' "$home/release" 2>/dev/null)" || return 0
  line="${line#JAVA_VERSION=\"}"
  echo "${line%%[.\"]*}"
}

# The cache file for class path $1 and JVM options $2 (which must be the same when the cache is
# used: --enable-native-access, for one) under JIT policy $3 (jit_policy): one per triple, in
# target/, trained again after a build.
aot_cache_file() {
  echo "$(aot_cache_stem "$1" "$2")-$3.aot"
}

# The part of aot_cache_file's name that all policies share.
aot_cache_stem() {
  echo "$ROOT/target/metope-aot-$(printf '%s %s' "$1" "$2" | cksum | cut -d ' ' -f 1)"
}

# Trains the cache of java $1, class path $2 (jars only: a cache takes no class directory) and
# JVM options $3 unless it exists and is newer than the last build; quiet, and any failure only
# leaves no cache. Runs under target/metope-build.lock. $4, where given, is a class that runs
# before the training in the same JVM and is given the training class and its arguments (the mpi
# device's, launcher/mpi.sh, links its downcalls first).
ensure_aot_cache() {
  local java="$1" cp="$2" opts="${3:-}" entry="${4:-}" cache work lock=""
  cache="$(aot_cache_file "$cp" "$opts" "$(jit_policy)")"
  [ -f "$cache" ] && { [ ! -f "$STAMP" ] || [ "$cache" -nt "$STAMP" ]; } && return 0
  [ "${METOPE_SKIP_BUILD:-0}" = 1 ] && return 0
  mkdir -p "$ROOT/target"
  if command -v flock >/dev/null; then
    exec {lock}>"$ROOT/target/metope-build.lock"
    flock "$lock"
  fi
  if [ ! -f "$cache" ] || { [ -f "$STAMP" ] && [ "$STAMP" -nt "$cache" ]; }; then
    work="$(mktemp -d "${TMPDIR:-/tmp}/metope-aot.XXXXXX")" || return 0
    echo "metope: training the AOT cache of $java for this build and JIT policy" \
      "$(jit_policy) (once; seconds)..." >&2
    # shellcheck disable=SC2046
    "$java" -XX:AOTCacheOutput="$work/metope.aot" $opts $(memory_opts) $(jit_opts) -Xlog:aot=off \
      -Xlog:cds=off -cp "$cp" $entry "$AOT_TRAINING_CLASS" -i "$ROOT/inputs/advection_amr_2d.in" \
      -d "$work/2d" parthenon/time/nlim=200 parthenon/output9/file_type=hdf5 \
      parthenon/output9/dt=1 parthenon/output9/variables=advected --then \
      -i "$ROOT/inputs/advection.in" -d "$work/3d" parthenon/time/nlim=40 \
      parthenon/time/tlim=10 parthenon/output3/dt=-1 >/dev/null 2>&1 </dev/null \
      && mv -f "$work/metope.aot" "$cache" && remove_stale_aot_caches
    rm -rf "$work"
  fi
  [ -n "$lock" ] && exec {lock}>&-
  return 0
}

# Removes the caches of earlier builds, those not newer than the build stamp (20 MB each): a
# cache is trained again after every build, so they serve no JVM of this build, and one of a class
# path or options that have since changed would stay forever.
remove_stale_aot_caches() {
  [ -f "$STAMP" ] || return 0
  find "$ROOT/target" -maxdepth 1 -name 'metope-aot-*.aot' ! -newer "$STAMP" -delete 2>/dev/null
  return 0
}

# The options that make java $1 on class path $2 with JVM options $3 use its cache (training it
# first where needed, with ensure_aot_cache's entry class $4), or nothing for a JVM older than 25.
# Where this policy's cache is missing and cannot be trained here (METOPE_SKIP_BUILD: the ranks
# ./metope --dev mpi starts under mpirun, after it trained the cache of the policy it expects them
# to run, ensure_rank_aot_cache in launcher/mpi.sh), the newest cache of another policy for the
# same class path and options serves: its classes are the same, only its profiles differ.
aot_opts() {
  local release
  release="$(java_release "$1")"
  [[ "$release" =~ ^[0-9]+$ ]] && [ "$release" -ge 25 ] || return 0
  ensure_aot_cache "$1" "$2" "${3:-}" "${4:-}"
  local cache other
  cache="$(aot_cache_file "$2" "${3:-}" "$(jit_policy)")"
  if [ ! -f "$cache" ]; then
    for other in "$(aot_cache_stem "$2" "${3:-}")"-*.aot; do
      [ -f "$other" ] && { [ ! -f "$cache" ] || [ "$other" -nt "$cache" ]; } && cache="$other"
    done
  fi
  [ -f "$cache" ] && echo "-XX:AOTCache=$cache -Xlog:aot=off -Xlog:cds=off"
  return 0
}
