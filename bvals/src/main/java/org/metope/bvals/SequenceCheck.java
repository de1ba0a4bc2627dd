package org.metope.bvals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.metope.comm.Communicator;
import org.metope.comm.ReduceOp;

/**
 * The collective behind {@link ChannelRegistry#verifySequences}: every rank publishes the send
 * counts of its cross-rank senders; each rank compares them with its receivers' counts, checks
 * its same-rank channels locally, and all ranks agree on the total.
 */
final class SequenceCheck {
  /** Ints per published sender: kind, the four key fields, receiver rank, count (two ints). */
  private static final int RECORD = 8;
  private static final int MAX_LISTED = 20;

  private record Channel(ChannelKind kind, ChannelKey key) {}

  private SequenceCheck() {}

  static void verify(ChannelRegistry registry, Communicator comm) {
    List<CommBuffer> all = new ArrayList<>();
    for (ChannelKind kind : ChannelKind.values()) {
      all.addAll(registry.map(kind).sorted());
    }
    int[] gathered = comm.allgather(senderRecords(all));
    HashMap<Channel, Long> sentToMe = new HashMap<>();
    int me = comm.rank();
    for (int at = 0; at < gathered.length; at += RECORD) {
      if (gathered[at + 5] == me) {
        ChannelKey key = new ChannelKey(gathered[at + 1], gathered[at + 2], gathered[at + 3],
            gathered[at + 4]);
        long count = ((long) gathered[at + 6] << 32) | (gathered[at + 7] & 0xffffffffL);
        sentToMe.put(new Channel(ChannelKind.values()[gathered[at]], key), count);
      }
    }
    List<String> problems = new ArrayList<>();
    for (CommBuffer b : all) {
      if (b.role() == ChannelRole.LOCAL && b.sendSequence() != b.receiveSequence()) {
        problems.add(b.kind() + " " + b.key() + " same-rank sendSeq=" + b.sendSequence()
            + " recvSeq=" + b.receiveSequence());
      } else if (b.role() == ChannelRole.RECEIVER) {
        Long sent = sentToMe.remove(new Channel(b.kind(), b.key()));
        if (sent == null) {
          problems.add(b.kind() + " " + b.key() + " receiver has no sender on rank "
              + b.peerRank() + ", recvSeq=" + b.receiveSequence());
        } else if (sent != b.receiveSequence()) {
          problems.add(b.kind() + " " + b.key() + " sendSeq=" + sent + " on rank "
              + b.peerRank() + " but recvSeq=" + b.receiveSequence());
        }
      }
    }
    for (Channel orphan : sentToMe.keySet()) {
      problems.add(orphan.kind() + " " + orphan.key() + " sender has no receiver on rank " + me);
    }
    long total = comm.allreduce((long) problems.size(), ReduceOp.SUM);
    if (total > 0) {
      throw new SequenceMismatchException(message(me, problems, total), total);
    }
  }

  private static int[] senderRecords(List<CommBuffer> all) {
    int senders = 0;
    for (CommBuffer b : all) {
      if (b.role() == ChannelRole.SENDER) {
        senders++;
      }
    }
    int[] records = new int[senders * RECORD];
    int at = 0;
    for (CommBuffer b : all) {
      if (b.role() != ChannelRole.SENDER) {
        continue;
      }
      ChannelKey k = b.key();
      long count = b.sendSequence();
      records[at] = b.kind().ordinal();
      records[at + 1] = k.senderGid();
      records[at + 2] = k.receiverGid();
      records[at + 3] = k.fieldId();
      records[at + 4] = k.element();
      records[at + 5] = b.peerRank();
      records[at + 6] = (int) (count >>> 32);
      records[at + 7] = (int) count;
      at += RECORD;
    }
    return records;
  }

  private static String message(int rank, List<String> problems, long total) {
    problems.sort(null);
    StringBuilder sb = new StringBuilder("channels not received exactly once per send: "
        + "totalMismatches=" + total + ", rank=" + rank + ", mismatchesOnThisRank="
        + problems.size());
    for (int i = 0; i < Math.min(MAX_LISTED, problems.size()); i++) {
      sb.append("\n  ").append(problems.get(i));
    }
    if (problems.size() > MAX_LISTED) {
      sb.append("\n  ... ").append(problems.size() - MAX_LISTED).append(" more");
    }
    return sb.toString();
  }
}
