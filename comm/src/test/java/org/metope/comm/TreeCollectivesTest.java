package org.metope.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link TreeCollectives} over counting links, on rank counts that are and are not powers of two:
 * the results have the bits of a rank-order fold, and rank 0 sends and receives at most {@code
 * 2 ceil(log2 P)} messages per collective (one more for a gather to another root). The negative
 * control runs a rank-0 star, the algorithm the trees replaced, through the same links and bound.
 */
class TreeCollectivesTest {
  /** A deadlock shows as no message moving anywhere for this long. */
  private static final long STILL_NANOS = TimeUnit.SECONDS.toNanos(60);

  /** Messages between threads: a FIFO per (sender, receiver), copies of the sent prefix. */
  private static final class Cluster {
    final int size;
    final List<LinkedBlockingQueue<Object>> queues = new ArrayList<>();
    final AtomicLong moved = new AtomicLong();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final long[] messages;

    Cluster(int size) {
      this.size = size;
      this.messages = new long[size];
      for (int i = 0; i < size * size; i++) {
        queues.add(new LinkedBlockingQueue<>());
      }
    }

    CollectiveLinks links(int rank) {
      return new CollectiveLinks() {
        @Override
        public int rank() {
          return rank;
        }

        @Override
        public int size() {
          return size;
        }

        @Override
        public void send(Object buffer, int length, int peer) {
          Object copy = Array.newInstance(buffer.getClass().getComponentType(), length);
          System.arraycopy(buffer, 0, copy, 0, length);
          queues.get(rank * size + peer).add(copy);
          messages[rank]++;
          moved.incrementAndGet();
        }

        @Override
        public void receive(Object buffer, int length, int peer) {
          Object message = receiveNew(buffer, peer);
          if (Array.getLength(message) != length) {
            throw new IllegalStateException("ranks passed different lengths to a collective: "
                + "length=" + length + ", received=" + Array.getLength(message));
          }
          System.arraycopy(message, 0, buffer, 0, length);
        }

        @Override
        public Object receiveNew(Object like, int peer) {
          LinkedBlockingQueue<Object> queue = queues.get(peer * size + rank);
          long seen = moved.get();
          long since = System.nanoTime();
          while (true) {
            Object message;
            try {
              message = queue.poll(10, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
              throw new IllegalStateException(e);
            }
            if (failure.get() != null) {
              throw new IllegalStateException("another rank failed");
            }
            if (message != null) {
              messages[rank]++;
              moved.incrementAndGet();
              return message;
            }
            if (moved.get() != seen) {
              seen = moved.get();
              since = System.nanoTime();
            } else if (System.nanoTime() - since > STILL_NANOS) {
              throw new IllegalStateException("deadlock: rank " + rank + " waits for rank "
                  + peer + " and no message moved");
            }
          }
        }
      };
    }

    /** Runs {@code body} on every rank's links; returns the messages rank 0 sent and received. */
    long run(Consumer<CollectiveLinks> body) {
      List<Thread> threads = new ArrayList<>();
      for (int r = 0; r < size; r++) {
        CollectiveLinks links = links(r);
        Thread t = new Thread(() -> {
          try {
            body.accept(links);
          } catch (Throwable e) {
            failure.compareAndSet(null, e);
          }
        });
        threads.add(t);
        t.start();
      }
      for (Thread t : threads) {
        try {
          t.join();
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      }
      if (failure.get() != null) {
        throw new AssertionError("a rank failed", failure.get());
      }
      for (LinkedBlockingQueue<Object> q : queues) {
        assertTrue(q.isEmpty(), "every message sent was received");
      }
      return messages[0];
    }
  }

  private static int ceilLog2(int p) {
    return 32 - Integer.numberOfLeadingZeros(p - 1);
  }

  /** Whether {@code messages} at rank 0 are within the trees' bound for {@code p} ranks. */
  private static boolean logarithmic(long messages, int p, int extra) {
    return messages <= 2L * ceilLog2(p) + extra;
  }

  /** 1e16 then ones: only a rank-order fold gives 1e16 exactly, any pairing of ones changes it. */
  private static double orderSensitive(int r, int i) {
    return i == 0 ? (r == 0 ? 1e16 : 1.0) : (r + 1) * (i + 0.1) * (r % 2 == 0 ? 1 : -1);
  }

  @ParameterizedTest(name = "{0} ranks")
  @ValueSource(ints = {1, 2, 3, 4, 5, 7, 8, 13, 64})
  void givenRanks_thenReductionsHaveRankOrderBitsAndRankZeroSendsLogarithmicallyMany(int p) {
    for (ReduceOp op : ReduceOp.values()) {
      double[] expected = new double[3];
      for (int i = 0; i < 3; i++) {
        expected[i] = orderSensitive(0, i);
        for (int r = 1; r < p; r++) {
          expected[i] = op.apply(expected[i], orderSensitive(r, i));
        }
      }
      long count = new Cluster(p).run(links -> {
        double[] values = new double[3];
        for (int i = 0; i < 3; i++) {
          values[i] = orderSensitive(links.rank(), i);
        }
        new TreeCollectives(links).allreduce(values, op);
        for (int i = 0; i < 3; i++) {
          assertEquals(Double.doubleToRawLongBits(expected[i]),
              Double.doubleToRawLongBits(values[i]), op + " [" + i + "] on rank " + links.rank());
        }
      });
      assertTrue(logarithmic(count, p, 0), op + ": " + count + " messages at rank 0");
    }
    long count = new Cluster(p).run(links -> {
      long[] values = {links.rank() * 3L - 7, -links.rank(), 1L << 62};
      new TreeCollectives(links).allreduce(values,
          new ReduceOp[] {ReduceOp.SUM, ReduceOp.MIN, ReduceOp.SUM});
      long sum = 0;
      for (int r = 0; r < p; r++) {
        sum += r * 3L - 7;
      }
      assertArrayEquals(new long[] {sum, 1 - p, (1L << 62) * p}, values, "mixed long ops");
    });
    assertTrue(logarithmic(count, p, 0), "long allreduce: " + count + " messages at rank 0");
  }

  @ParameterizedTest(name = "{0} ranks")
  @ValueSource(ints = {1, 2, 3, 5, 8, 13, 64})
  void givenRanks_thenGathersAndBroadcastsAreInRankOrderWithLogarithmicallyManyMessages(int p) {
    int[] expectedInts = expectedConcatenation(p);
    long count = new Cluster(p).run(links -> {
      int[] all = (int[]) new TreeCollectives(links).allgather(part(links.rank()));
      assertArrayEquals(expectedInts, all, "allgather on rank " + links.rank());
    });
    assertTrue(logarithmic(count, p, 0), "allgather: " + count + " messages at rank 0");
    for (int root : new int[] {0, p - 1, p / 2}) {
      count = new Cluster(p).run(links -> {
        double[] mine = Arrays.stream(part(links.rank())).asDoubleStream().toArray();
        double[] all = (double[]) new TreeCollectives(links).gather(mine, root);
        double[] expected = links.rank() == root
            ? Arrays.stream(expectedInts).asDoubleStream().toArray() : new double[0];
        assertArrayEquals(expected, all, "gather to " + root + " on rank " + links.rank());
      });
      assertTrue(logarithmic(count, p, 1), "gather to " + root + ": " + count
          + " messages at rank 0");
      count = new Cluster(p).run(links -> {
        double[] data = new double[4];
        Arrays.fill(data, links.rank() == root ? root + 0.25 : Double.NaN);
        new TreeCollectives(links).broadcast(data, data.length, root);
        assertArrayEquals(new double[] {root + 0.25, root + 0.25, root + 0.25, root + 0.25}, data,
            "broadcast from " + root + " on rank " + links.rank());
      });
      assertTrue(logarithmic(count, p, 0), "broadcast from " + root + ": " + count
          + " messages at rank 0");
    }
    count = new Cluster(p).run(links -> new TreeCollectives(links).barrier());
    assertTrue(logarithmic(count, p, 0), "barrier: " + count + " messages at rank 0");
  }

  /** Rank r's part of a gather: r % 3 values, so some ranks give none. */
  private static int[] part(int r) {
    int[] part = new int[r % 3];
    for (int i = 0; i < part.length; i++) {
      part[i] = 100 * r + i;
    }
    return part;
  }

  private static int[] expectedConcatenation(int p) {
    List<Integer> all = new ArrayList<>();
    for (int r = 0; r < p; r++) {
      for (int v : part(r)) {
        all.add(v);
      }
    }
    return all.stream().mapToInt(Integer::intValue).toArray();
  }

  @ParameterizedTest(name = "{0} ranks")
  @ValueSource(ints = {8, 64})
  void givenTheRankZeroStarItReplaced_thenTheBoundRejectsIt(int p) {
    long count = new Cluster(p).run(links -> {
      double[] value = {links.rank() + 0.5};
      if (links.rank() == 0) {
        double[] other = new double[1];
        for (int r = 1; r < p; r++) {
          links.receive(other, 1, r);
          value[0] += other[0];
        }
        for (int r = 1; r < p; r++) {
          links.send(value, 1, r);
        }
      } else {
        links.send(value, 1, 0);
        links.receive(value, 1, 0);
      }
    });
    assertEquals(2L * (p - 1), count, "the star's messages at rank 0");
    assertFalse(logarithmic(count, p, 1), "the bound must reject the star: " + count);
  }

  @ParameterizedTest(name = "{0} ranks")
  @ValueSource(ints = {2, 5})
  void givenRanksPassingDifferentLengths_thenAReceiverNamesBoth(int p) {
    AssertionError e = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
        () -> new Cluster(p).run(links -> new TreeCollectives(links)
            .allreduce(new double[links.rank() == p - 1 ? 2 : 1], ReduceOp.MAX)));
    assertTrue(String.valueOf(e.getCause().getMessage())
        .contains("ranks passed different lengths to a collective"), e.getCause().toString());
  }
}
