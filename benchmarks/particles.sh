#!/usr/bin/env bash
# Particle pushes and exchange rounds per second: Parthenon's particle-leapfrog and
# particle-tracers against Metope's particle_leapfrog and particle_tracers, on the same deck files
# (inputs/particle_leapfrog.in, inputs/particle_tracers.in), one rank each, runs interleaved.
#
#   benchmarks/particles.sh [REPEATS] [block/key=value ...]
#
# REPEATS (default 3) rounds of the four runs; overrides go to every run, after the script's own
# (leapfrog: tlim = 100, about 9,300 cycles of its 14 particles; tracers: num_tracers = 100000,
# its 214 cycles; outputs only at the start and the end). Each run's figures come from its own
# output: cycles and "walltime used" (the time loop, start-up excluded) from stdout, particles
# from the final .phdf (the swarm's counts, read with h5py). Printed per run:
#   pushes/s    = particles x cycles / loop time (every particle moves once a cycle)
#   exchanges/s = cycles / loop time (each cycle is one exchange round of the swarm)
# Parthenon's binaries: $PARTHENON_BUILD/example/particle_{leapfrog,tracers}
# (default PARTHENON_BUILD=/tmp/parthenon-build). The load average is printed before and after:
# figures taken on a shared machine say so.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
REPEATS="${1:-3}"
[[ "$REPEATS" =~ ^[1-9][0-9]*$ ]] || { echo "particles.sh: REPEATS = \"$REPEATS\": expected a positive integer" >&2; exit 2; }
shift $(( $# > 0 ? 1 : 0 ))
BUILD="${PARTHENON_BUILD:-/tmp/parthenon-build}"
for exe in particle_leapfrog/particle-leapfrog particle_tracers/particle-tracers; do
  [ -x "$BUILD/example/$exe" ] || { echo "particles.sh: no Parthenon binary $BUILD/example/$exe (set PARTHENON_BUILD)" >&2; exit 2; }
done
WORK="$(mktemp -d "${TMPDIR:-/tmp}/metope-particles.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

LEAPFROG=(parthenon/time/tlim=100 parthenon/output0/dt=1000 parthenon/output1/dt=1000)
TRACERS=(Tracers/num_tracers=100000 parthenon/output0/dt=100)

# run CODE DECK SWARM ARGS...: one run in a fresh directory, one line of figures.
run() {
  local code="$1" deck="$2" swarm="$3"; shift 3
  local dir="$WORK/run"; rm -rf "$dir"; mkdir -p "$dir"
  local log="$dir/stdout"
  if [ "$code" = parthenon ]; then
    local exe="$BUILD/example/particle_leapfrog/particle-leapfrog"
    [ "$deck" = particle_tracers ] && exe="$BUILD/example/particle_tracers/particle-tracers"
    (cd "$dir" && "$exe" -i "$ROOT/inputs/$deck.in" "$@" > "$log" 2>&1)
  else
    "$ROOT/metope" -i "$ROOT/inputs/$deck.in" -d "$dir" "$@" > "$log" 2>&1
  fi
  local cycles wall final particles
  cycles="$(grep -E '^time=.* cycle=' "$log" | tail -1 | sed 's/.*cycle=//')"
  wall="$(grep -E '^walltime used = ' "$log" | tail -1 | sed 's/.*= //')"
  final="$(ls "$dir"/*.out0.final.phdf)"
  particles="$(/usr/bin/python3 -c "import h5py,sys; print(int(h5py.File(sys.argv[1])[sys.argv[2]+'/counts'][:].sum()))" "$final" "$swarm")"
  awk -v c="$code" -v d="$deck" -v n="$cycles" -v w="$wall" -v p="$particles" 'BEGIN {
    printf "%-9s %-17s %7d cycles %9d particles %9.3f s  pushes/s %.3e  exchanges/s %.3e\n",
      c, d, n, p, w, p * n / w, n / w }'
}

"$ROOT/metope" -i "$ROOT/inputs/particle_leapfrog.in" -d "$WORK/warm" parthenon/time/nlim=1 > /dev/null 2>&1 \
  || { echo "particles.sh: ./metope could not run particle_leapfrog (see ./metope -i inputs/particle_leapfrog.in)" >&2; exit 1; }
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 1; r <= REPEATS; r++)); do
  run parthenon particle_leapfrog my_particles "${LEAPFROG[@]}" "$@"
  run metope particle_leapfrog my_particles "${LEAPFROG[@]}" "$@"
  run parthenon particle_tracers tracers "${TRACERS[@]}" "$@"
  run metope particle_tracers tracers "${TRACERS[@]}" "$@"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
