package org.metope.bvals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.metope.bvals.channel.BufferArena;
import org.metope.bvals.channel.BufferGroup;
import org.metope.bvals.channel.BufferPools;
import org.metope.bvals.channel.BufferSlice;
import org.metope.bvals.channel.BufferState;
import org.metope.bvals.channel.ChannelKey;
import org.metope.bvals.channel.ChannelKind;
import org.metope.bvals.channel.ChannelRole;
import org.metope.bvals.channel.ChannelSpec;
import org.metope.bvals.channel.CommBuffer;
import org.metope.bvals.channel.ObjectPool;
import org.metope.bvals.channel.TagMap;

/**
 * Every operation of {@link CommBuffer} from every state each role can be in, legal or not. The
 * expected outcomes follow the state table of {@link BufferState} and the transition list of
 * {@link CommBuffer}; a scripted communicator holds cross-rank requests in flight or completes
 * them on demand.
 */
public class CommBufferTransitionsTest {
  public static final int LENGTH = 8;

  /** A channel of one role with its arena, pools and scripted communicator. */
  public static final class Fixture {
    public final BufferArena arena = new BufferArena();
    public final BufferPools pools = new BufferPools(arena);
    public final ScriptedCommunicator comm;
    public final CommBuffer buffer;

    public Fixture(String role) {
      boolean local = role.equals("LOCAL");
      int me = role.endsWith("RECEIVER") ? 1 : 0;
      comm = new ScriptedCommunicator(me, local ? 1 : 2);
      ChannelSpec spec = new ChannelSpec(new ChannelKey(3, 5, 2, 4), ChannelKind.BOUNDARY_VALUES,
          0, local ? 0 : 1, local ? TagMap.NO_TAG : 7, LENGTH, role.startsWith("SPARSE"));
      ChannelRole group = local ? ChannelRole.LOCAL
          : me == 0 ? ChannelRole.SENDER : ChannelRole.RECEIVER;
      ObjectPool<BufferSlice> pool =
          pools.pool(new BufferGroup(local ? 0 : 1 - me, 0, spec.kind(), group), LENGTH);
      buffer = new CommBuffer(spec, comm, pool::get);
      if (me == 0) {
        buffer.allocate();
      }
    }

    public ScriptedCommunicator.ScriptedRequest request() {
      return comm.lastRequest();
    }

    void drive(String setup) {
      switch (setup) {
        case "STALE", "STALE_NOT_POSTED" -> { }
        case "SENDING", "SENDING_IN_FLIGHT" -> buffer.send();
        case "SENDING_NULL", "SENDING_NULL_IN_FLIGHT" -> buffer.sendNull();
        case "SENDING_COMPLETE" -> {
          buffer.send();
          request().complete(LENGTH);
        }
        case "SENDING_NULL_COMPLETE" -> {
          buffer.sendNull();
          request().complete(0);
        }
        case "LOCAL_RECEIVED" -> {
          buffer.send();
          buffer.tryReceive();
        }
        case "LOCAL_RECEIVED_NULL" -> {
          buffer.sendNull();
          buffer.tryReceive();
        }
        case "STALE_POSTED", "POSTED_DATA" -> post(LENGTH);
        case "POSTED_NULL" -> post(0);
        case "NOTHING_ARRIVED" -> buffer.tryStartReceive();
        case "RECEIVED" -> receive(LENGTH);
        case "RECEIVED_NULL" -> receive(0);
        default -> throw new IllegalArgumentException("setup=" + setup);
      }
    }

    private void post(int messageLength) {
      comm.probeAnswer = messageLength;
      assertTrue(buffer.tryStartReceive());
    }

    private void receive(int messageLength) {
      post(messageLength);
      request().complete(messageLength);
      assertTrue(buffer.tryReceive());
    }

    /** Runs {@code op} and describes its outcome as in the table. */
    String apply(String op) {
      try {
        return switch (op) {
          case "send" -> { buffer.send(); yield "void " + buffer.state(); }
          case "sendNull" -> { buffer.sendNull(); yield "void " + buffer.state(); }
          case "tryStartReceive" -> buffer.tryStartReceive() + " " + buffer.state();
          case "tryReceive" -> buffer.tryReceive() + " " + buffer.state();
          case "stale" -> { buffer.stale(); yield "void " + buffer.state(); }
          case "isAvailableForWrite" -> buffer.isAvailableForWrite() + " " + buffer.state();
          case "free" -> { buffer.free(); yield "void " + buffer.state(); }
          default -> throw new IllegalArgumentException("op=" + op);
        };
      } catch (IllegalStateException e) {
        assertTrue(e.getMessage().contains("key=ChannelKey[senderGid=3, receiverGid=5, fieldId=2,"
            + " element=4]") && e.getMessage().contains("state="), e.getMessage());
        return "throws";
      }
    }
  }

  @ParameterizedTest(name = "{0} in {1}: {2} -> {3}")
  @CsvSource({
      "LOCAL, STALE, send, void SENDING",
      "LOCAL, STALE, sendNull, void SENDING_NULL",
      "LOCAL, STALE, tryStartReceive, true STALE",
      "LOCAL, STALE, tryReceive, false STALE",
      "LOCAL, STALE, stale, throws",
      "LOCAL, STALE, isAvailableForWrite, true STALE",
      "LOCAL, STALE, free, void STALE",
      "LOCAL, SENDING, send, throws",
      "LOCAL, SENDING, sendNull, throws",
      "LOCAL, SENDING, tryStartReceive, true SENDING",
      "LOCAL, SENDING, tryReceive, true RECEIVED",
      "LOCAL, SENDING, stale, throws",
      "LOCAL, SENDING, isAvailableForWrite, false SENDING",
      "LOCAL, SENDING, free, throws",
      "LOCAL, SENDING_NULL, send, throws",
      "LOCAL, SENDING_NULL, sendNull, throws",
      "LOCAL, SENDING_NULL, tryStartReceive, true SENDING_NULL",
      "LOCAL, SENDING_NULL, tryReceive, true RECEIVED_NULL",
      "LOCAL, SENDING_NULL, stale, throws",
      "LOCAL, SENDING_NULL, isAvailableForWrite, false SENDING_NULL",
      "LOCAL, SENDING_NULL, free, void SENDING_NULL",
      "LOCAL, LOCAL_RECEIVED, send, throws",
      "LOCAL, LOCAL_RECEIVED, sendNull, throws",
      "LOCAL, LOCAL_RECEIVED, tryStartReceive, throws",
      "LOCAL, LOCAL_RECEIVED, tryReceive, true RECEIVED",
      "LOCAL, LOCAL_RECEIVED, stale, void STALE",
      "LOCAL, LOCAL_RECEIVED, isAvailableForWrite, false RECEIVED",
      "LOCAL, LOCAL_RECEIVED, free, throws",
      "LOCAL, LOCAL_RECEIVED_NULL, send, throws",
      "LOCAL, LOCAL_RECEIVED_NULL, sendNull, throws",
      "LOCAL, LOCAL_RECEIVED_NULL, tryStartReceive, throws",
      "LOCAL, LOCAL_RECEIVED_NULL, tryReceive, true RECEIVED_NULL",
      "LOCAL, LOCAL_RECEIVED_NULL, stale, void STALE",
      "LOCAL, LOCAL_RECEIVED_NULL, isAvailableForWrite, false RECEIVED_NULL",
      "LOCAL, LOCAL_RECEIVED_NULL, free, void RECEIVED_NULL",

      "SENDER, STALE, send, void SENDING",
      "SENDER, STALE, sendNull, void SENDING_NULL",
      "SENDER, STALE, tryStartReceive, throws",
      "SENDER, STALE, tryReceive, throws",
      "SENDER, STALE, stale, throws",
      "SENDER, STALE, isAvailableForWrite, true STALE",
      "SENDER, STALE, free, void STALE",
      "SENDER, SENDING_IN_FLIGHT, send, throws",
      "SENDER, SENDING_IN_FLIGHT, sendNull, throws",
      "SENDER, SENDING_IN_FLIGHT, tryStartReceive, throws",
      "SENDER, SENDING_IN_FLIGHT, tryReceive, throws",
      "SENDER, SENDING_IN_FLIGHT, stale, throws",
      "SENDER, SENDING_IN_FLIGHT, isAvailableForWrite, false SENDING",
      "SENDER, SENDING_IN_FLIGHT, free, throws",
      "SENDER, SENDING_COMPLETE, send, void SENDING",
      "SENDER, SENDING_COMPLETE, sendNull, void SENDING_NULL",
      "SENDER, SENDING_COMPLETE, tryStartReceive, throws",
      "SENDER, SENDING_COMPLETE, tryReceive, throws",
      "SENDER, SENDING_COMPLETE, stale, throws",
      "SENDER, SENDING_COMPLETE, isAvailableForWrite, true STALE",
      "SENDER, SENDING_COMPLETE, free, void STALE",
      "SENDER, SENDING_NULL_IN_FLIGHT, send, throws",
      "SENDER, SENDING_NULL_IN_FLIGHT, sendNull, throws",
      "SENDER, SENDING_NULL_IN_FLIGHT, tryStartReceive, throws",
      "SENDER, SENDING_NULL_IN_FLIGHT, tryReceive, throws",
      "SENDER, SENDING_NULL_IN_FLIGHT, stale, throws",
      "SENDER, SENDING_NULL_IN_FLIGHT, isAvailableForWrite, false SENDING_NULL",
      "SENDER, SENDING_NULL_IN_FLIGHT, free, void SENDING_NULL",
      "SENDER, SENDING_NULL_COMPLETE, send, void SENDING",
      "SENDER, SENDING_NULL_COMPLETE, sendNull, void SENDING_NULL",
      "SENDER, SENDING_NULL_COMPLETE, stale, throws",
      "SENDER, SENDING_NULL_COMPLETE, isAvailableForWrite, true STALE",

      "RECEIVER, STALE_NOT_POSTED, send, throws",
      "RECEIVER, STALE_NOT_POSTED, sendNull, throws",
      "RECEIVER, STALE_NOT_POSTED, tryStartReceive, true STALE",
      "RECEIVER, STALE_NOT_POSTED, tryReceive, false STALE",
      "RECEIVER, STALE_NOT_POSTED, stale, throws",
      "RECEIVER, STALE_NOT_POSTED, isAvailableForWrite, throws",
      "RECEIVER, STALE_NOT_POSTED, free, void STALE",
      "RECEIVER, STALE_POSTED, send, throws",
      "RECEIVER, STALE_POSTED, sendNull, throws",
      "RECEIVER, STALE_POSTED, tryStartReceive, true STALE",
      "RECEIVER, STALE_POSTED, tryReceive, false STALE",
      "RECEIVER, STALE_POSTED, stale, throws",
      "RECEIVER, STALE_POSTED, isAvailableForWrite, throws",
      "RECEIVER, STALE_POSTED, free, throws",
      "RECEIVER, RECEIVED, send, throws",
      "RECEIVER, RECEIVED, sendNull, throws",
      "RECEIVER, RECEIVED, tryStartReceive, throws",
      "RECEIVER, RECEIVED, tryReceive, true RECEIVED",
      "RECEIVER, RECEIVED, stale, void STALE",
      "RECEIVER, RECEIVED, isAvailableForWrite, throws",
      "RECEIVER, RECEIVED, free, throws",
      "RECEIVER, RECEIVED_NULL, send, throws",
      "RECEIVER, RECEIVED_NULL, sendNull, throws",
      "RECEIVER, RECEIVED_NULL, tryStartReceive, throws",
      "RECEIVER, RECEIVED_NULL, tryReceive, true RECEIVED_NULL",
      "RECEIVER, RECEIVED_NULL, stale, void STALE",
      "RECEIVER, RECEIVED_NULL, isAvailableForWrite, throws",
      "RECEIVER, RECEIVED_NULL, free, void RECEIVED_NULL",

      "SPARSE_RECEIVER, NOTHING_ARRIVED, tryStartReceive, false STALE",
      "SPARSE_RECEIVER, NOTHING_ARRIVED, tryReceive, false STALE",
      "SPARSE_RECEIVER, NOTHING_ARRIVED, stale, throws",
      "SPARSE_RECEIVER, NOTHING_ARRIVED, send, throws",
      "SPARSE_RECEIVER, NOTHING_ARRIVED, free, void STALE",
      "SPARSE_RECEIVER, POSTED_DATA, tryStartReceive, true STALE",
      "SPARSE_RECEIVER, POSTED_DATA, tryReceive, false STALE",
      "SPARSE_RECEIVER, POSTED_DATA, free, throws",
      "SPARSE_RECEIVER, POSTED_NULL, tryStartReceive, true STALE",
      "SPARSE_RECEIVER, POSTED_NULL, tryReceive, false STALE",
      "SPARSE_RECEIVER, POSTED_NULL, free, void STALE",
      "SPARSE_RECEIVER, RECEIVED, tryStartReceive, throws",
      "SPARSE_RECEIVER, RECEIVED, tryReceive, true RECEIVED",
      "SPARSE_RECEIVER, RECEIVED, stale, void STALE",
      "SPARSE_RECEIVER, RECEIVED_NULL, tryReceive, true RECEIVED_NULL",
      "SPARSE_RECEIVER, RECEIVED_NULL, stale, void STALE",
  })
  void givenRoleAndState_whenOperation_thenOutcomeIsAsInTheTable(String role, String setup,
      String op, String expected) {
    Fixture f = new Fixture(role);
    f.drive(setup);
    assertEquals(expected, f.apply(op));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"LOCAL", "SENDER", "RECEIVER", "SPARSE_RECEIVER"})
  void givenAnyRole_whenConstructed_thenStaleWithZeroSequences(String role) {
    Fixture f = new Fixture(role);
    assertEquals(BufferState.STALE, f.buffer.state());
    assertEquals(0, f.buffer.sendSequence());
    assertEquals(0, f.buffer.receiveSequence());
    assertEquals(role.endsWith("RECEIVER") ? ChannelRole.RECEIVER
        : ChannelRole.valueOf(role), f.buffer.role());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"LOCAL", "RECEIVER"})
  void givenUnallocated_whenBufferRequested_thenMisuseNamesTheKey(String role) {
    Fixture f = new Fixture(role);
    f.buffer.free();
    IllegalStateException e = assertThrows(IllegalStateException.class, f.buffer::buffer);
    assertTrue(e.getMessage().startsWith("buffer() of an unallocated channel: key=ChannelKey["),
        e.getMessage());
  }
}
