/*
 * Ping-pong between ranks 0 and 1 in C over MPI, measured like Metope's CommunicatorBenchmark
 * (comm's test-jar), for `./metope bench pingpong`, which compiles it with mpicc and runs it on
 * 2 ranks beside the JVM devices: latency is half a round trip of one double, bandwidth is 1 MiB
 * messages (2^17 doubles) bounced back and forth; each figure is the median of 5 timed runs after
 * a warm-up, with MPI_Isend/MPI_Irecv and MPI_Wait as the Java devices post and complete them,
 * between buffers written once beforehand.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

enum { REPEATS = 5, SMALL = 1, LARGE = 1 << 17, TAG = 0 };

static double round_trip_seconds(int rank, double *out, double *in, int length, int round_trips) {
  MPI_Request send, recv;
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  for (int i = 0; i < round_trips; i++) {
    if (rank == 0) {
      MPI_Irecv(in, length, MPI_DOUBLE, 1, TAG, MPI_COMM_WORLD, &recv);
      MPI_Isend(out, length, MPI_DOUBLE, 1, TAG, MPI_COMM_WORLD, &send);
      MPI_Wait(&send, MPI_STATUS_IGNORE);
      MPI_Wait(&recv, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Irecv(in, length, MPI_DOUBLE, 0, TAG, MPI_COMM_WORLD, &recv);
      MPI_Wait(&recv, MPI_STATUS_IGNORE);
      MPI_Isend(out, length, MPI_DOUBLE, 0, TAG, MPI_COMM_WORLD, &send);
      MPI_Wait(&send, MPI_STATUS_IGNORE);
    }
  }
  double seconds = MPI_Wtime() - start;
  MPI_Barrier(MPI_COMM_WORLD);
  return seconds / round_trips;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    fprintf(stderr, "pingpong: needs at least 2 ranks: size=%d\n", size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  double *out = malloc(LARGE * sizeof(double));
  double *in = malloc(LARGE * sizeof(double));
  /* Written before use, as the Java bench's buffers are: pages of calloc never written are all
   * the kernel's one zero page, so a send from them reads 4 KiB over and over from cache (twice
   * the bandwidth of written memory here). */
  for (int i = 0; i < LARGE; i++) {
    out[i] = 1.0;
    in[i] = 1.0;
  }
  double latency[REPEATS], bandwidth[REPEATS];
  round_trip_seconds(rank, out, in, SMALL, 2000);
  for (int k = 0; k < REPEATS; k++) {
    latency[k] = round_trip_seconds(rank, out, in, SMALL, 10000) / 2 * 1e6;
  }
  round_trip_seconds(rank, out, in, LARGE, 10);
  for (int k = 0; k < REPEATS; k++) {
    bandwidth[k] = 2.0 * LARGE * sizeof(double)
        / round_trip_seconds(rank, out, in, LARGE, 50) / (1 << 20);
  }
  /* The largest rank's peak resident memory (kB on Linux), as the Java bench prints it. */
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  long peak_kb = usage.ru_maxrss, largest_kb = 0;
  MPI_Reduce(&peak_kb, &largest_kb, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length;
    MPI_Get_library_version(version, &length);
    for (int i = 0; i < length; i++) {
      if (version[i] == ',') {
        version[i] = '\0';
        break;
      }
    }
    qsort(latency, REPEATS, sizeof(double), by_value);
    qsort(bandwidth, REPEATS, sizeof(double), by_value);
    printf("C ping-pong (mpicc) on %s, %d ranks: latency %.2f us (one double, half round trip), "
        "bandwidth %.0f MiB/s (1 MiB messages); peak RSS %ld MB (largest rank)\n", version,
        size, latency[REPEATS / 2], bandwidth[REPEATS / 2], (largest_kb + 512) / 1024);
  }
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
