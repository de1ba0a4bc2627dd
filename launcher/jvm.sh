# The options a Metope JVM gets from the launcher beside its class path (sourced by ./metope; used
# by one-rank runs, MPJ ranks (launcher/mpj.sh) and MPI ranks (launcher/mpi.sh)): heap and
# collector (heap_opts, memory_opts), JIT policy (jit_policy, jit_opts; launcher/aot.sh names its
# caches by the policy) and TornadoVM's per-body launchers (device_launcher_opts). Needs from
# ./metope: ROOT, die.

# JVM heap options sized from the machine: without a heap setting in METOPE_JAVA_OPTS (-Xmx,
# -XX:MaxRAMPercentage, -XX:MaxRAM), every JVM may use its share of 75% of the machine's memory
# (the JVM's own default is 25%, too little for a large deck on one rank). $1: JVMs sharing it.
heap_opts() {
  case " ${METOPE_JAVA_OPTS:-} " in
    *" -Xmx"* | *"MaxRAMPercentage"* | *"-XX:MaxRAM="*) return 0 ;;
  esac
  local percent=$((75 / $1))
  [ "$percent" -ge 1 ] || percent=1
  echo "-XX:MaxRAMPercentage=$percent"
}

# Memory options of a Metope JVM (one-rank runs, MPJ and MPI ranks). The collector is the
# parallel one with a fixed 8 MB young generation and a 32 MB initial heap, unless
# METOPE_JAVA_OPTS names a collector or sizes the heap: a warm cycle allocates nothing, so garbage
# comes from set-up, remeshes and sparse plans only, and dies young; G1, the JDK's default, grew
# its young generation and committed heap with it, to 1.5 GB of resident memory on the sparse
# deck, whose fields take 4 MB (Parthenon: 0.29 GB), and to 5x Parthenon's on the 2D adaptive
# deck (docs/PERFORMANCE.md, "Memory per rank"). The initial heap is small because the old
# generation fills up to it before its first collection: from the JVM's default (1/64 of the
# machine's memory, 384 MB on 24 GB) the garbage that remeshes promote took the sparse deck to 460
# MB (Parthenon: 0.28 GB), from 32 MB to 160-170 MB. A young generation of 32 MB (16 MB) left
# the 2D adaptive deck at 108 (97) MB against 88-92 MB with 8 MB (Parthenon: 48 MB), for the
# same CPU seconds within a busy machine's noise: only set-up and remesh cycles allocate. The
# heap never gives memory back to the system (-XX:MaxHeapFreeRatio=100): a remesh drops an arena
# and allocates the next one, and a heap shrunk in between would fault the new arena's pages in
# again (on the project's VM the 3D adaptive deck's remeshes took half as long again). A run's
# resident memory stays at its peak, as a C++ code's does. $1: the ranks this JVM holds (default
# 1; MPJ multicore: all of them), which get both sizes each: they allocate as many one-rank JVMs
# do, and a young collection stops every one of them (two multicore ranks, Parthenon's 2D
# adaptive deck: the collector's threads took 0.17 - 0.24 s with 8 MB, 0.13 - 0.15 s with 16 MB).
memory_opts() {
  local ranks="${1:-1}"
  case " ${METOPE_JAVA_OPTS:-} " in
    *" -XX:+Use"*"GC "*) echo "-XX:MaxHeapFreeRatio=100" ;;
    # A heap the user sized may be smaller than the young generation: the collector sizes it.
    *" -Xmx"* | *" -Xms"* | *"NewSize"* | *" -Xmn"*)
      echo "-XX:MaxHeapFreeRatio=100 -XX:+UseParallelGC" ;;
    *) echo "-XX:MaxHeapFreeRatio=100 -XX:+UseParallelGC -Xms$((32 * ranks))m -Xmn$((8 * ranks))m" ;;
  esac
}

# JIT options of a Metope JVM (one-rank runs, MPJ and MPI ranks), chosen by METOPE_JIT:
#   auto (default)  compile thresholds doubled, so code hot only in the first cycles (boundary
#                   tables, channel set-up) is left to C1; a JVM that sees one CPU (taskset, a
#                   cpuset, mpirun --bind-to core: nproc is 1) also waits 20 times longer before
#                   C2 compiles a method, because there the C2 compiler's work is taken from the
#                   cells' own CPU (the policy auto-one-cpu). A JVM that sees two or more CPUs
#                   keeps auto even when its ranks or task threads are as many as its CPUs: on
#                   Parthenon's 2D adaptive deck on two CPUs, quiet, the one-CPU policy made two
#                   task threads 20 - 25 % slower and two MPJ multicore ranks 15 - 25 % slower
#                   (docs/PERFORMANCE.md, "One CPU per rank")
#   quick           C1 only: least compilation, for short runs of small meshes in any mode (slower
#                   warm cycles: docs/USERS.md)
#   peak            the JVM's own tiered defaults
# METOPE_JAVA_OPTS comes after these, so options there override them. The policy's name also
# names the AOT cache a JVM of release 25 uses (launcher/aot.sh), trained under the same policy.
jit_policy() {
  case "${METOPE_JIT:-auto}" in
    auto)
      if [ "$(nproc 2>/dev/null || echo 2)" -le 1 ]; then
        echo auto-one-cpu
      else
        echo auto
      fi ;;
    *) echo "$METOPE_JIT" ;;
  esac
}

jit_opts() {
  case "$(jit_policy)" in
    quick) echo "-XX:TieredStopAtLevel=1" ;;
    auto-one-cpu)
      echo "-XX:CompileThresholdScaling=2 -XX:Tier4InvocationThreshold=100000" \
        "-XX:Tier4MinInvocationThreshold=12000 -XX:Tier4CompileThreshold=300000" \
        "-XX:Tier4BackEdgeThreshold=800000" ;;
    auto) echo "-XX:CompileThresholdScaling=2" ;;
  esac
}

# TornadoVM reads a kernel's @Parallel loops from class files that the system class loader finds
# as resources, so the launchers Metope makes per package body at run time (kernels-tornado's
# BodyLaunchers) are written to a directory of their own, named by -Dmetope.device.launchers, and
# appended to the boot class path, where the system class loader looks for resources first: MPJ's
# starters replace a rank JVM's class path with MPJ's jars, and the boot class path is the same for
# a one-rank run, an MPJ rank (multicore ranks share one JVM, niodev ranks have one each) and an
# MPI rank. A JVM given TornadoVM's options (METOPE_JAVA_OPTS naming tornado) gets both options
# (DEVICE_LAUNCHER_OPTS, one word each, as MPJ's starter needs); others get neither.
DEVICE_LAUNCHERS="$ROOT/target/device-launchers"

device_launcher_opts() {
  case " ${METOPE_JAVA_OPTS:-} " in
    *tornado*)
      mkdir -p "$DEVICE_LAUNCHERS" || die "cannot create $DEVICE_LAUNCHERS"
      DEVICE_LAUNCHER_OPTS=(-Dmetope.device.launchers="$DEVICE_LAUNCHERS"
        -Xbootclasspath/a:"$DEVICE_LAUNCHERS") ;;
    *) DEVICE_LAUNCHER_OPTS=() ;;
  esac
}
