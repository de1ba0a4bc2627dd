package org.metope.bvals;

import org.metope.bvals.channel.BufferGroup;
import org.metope.bvals.channel.BufferSlice;
import org.metope.bvals.channel.ChannelKey;
import org.metope.bvals.channel.ChannelKind;
import org.metope.bvals.channel.ChannelRole;
import org.metope.bvals.channel.ChannelSpec;
import org.metope.bvals.channel.CommBuffer;
import org.metope.bvals.channel.CommDebug;
import org.metope.bvals.channel.TagMap;
import org.metope.comm.InProcessRun;

/**
 * Run by {@link CommTraceTest} in a child JVM with tracing and debug on: a same-rank
 * flux-correction channel on rank 0 (data, printed before and after staling), and a cross-rank
 * channel from rank 0 to rank 1 (data, then null).
 */
public final class CommDiagnosticsMain {
  private CommDiagnosticsMain() {}

  public static void main(String[] args) {
    System.out.println("debug=" + CommDebug.ENABLED);
    InProcessRun.run(2, comm -> {
      RankChannels rc = new RankChannels(comm);
      ChannelKey remote = new ChannelKey(0, 1, 0, 14);
      CommBuffer b = rc.channel(remote, 0, 1, 2, 3, false);
      if (comm.rank() == 0) {
        b.send();
        RankChannels.awaitWritable(b);
        b.sendNull();
        comm.barrier();
        runLocal(rc);
      } else {
        RankChannels.receive(b);
        b.stale();
        RankChannels.receive(b);
        b.stale();
        comm.barrier();
      }
    });
  }

  private static void runLocal(RankChannels rc) {
    BufferGroup group = new BufferGroup(0, 0, ChannelKind.FLUX_CORRECTION, ChannelRole.LOCAL);
    CommBuffer b = new CommBuffer(new ChannelSpec(new ChannelKey(5, 6, 1, 4),
        ChannelKind.FLUX_CORRECTION, 0, 0, TagMap.NO_TAG, 3, false), rc.comm,
        rc.pools.pool(group, 3)::get);
    b.allocate();
    RankChannels.fill(b, 7.0);
    b.send();
    RankChannels.receive(b);
    System.out.println("received=" + values(b));
    b.stale();
    System.out.println("afterStale=" + values(b));
  }

  private static String values(CommBuffer b) {
    BufferSlice s = b.buffer();
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      sb.append(i == 0 ? "" : ",").append(s.array()[s.offset() + i]);
    }
    return sb.toString();
  }
}
