package org.metope.bvals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.metope.bvals.channel.BoundaryType;
import org.metope.kernels.KernelBackend;
import org.metope.mesh.field.MeshData;

/**
 * One partition's plans by boundary type and direction (Parthenon's {@code BvarsCache_t}), kept
 * by {@link BoundaryCaches}.
 */
final class BvarsCache {
  /** The partition whose caches hold this one's flux-correction plans ({@link BoundaryCaches}). */
  final MeshData owner;
  private final Map<BoundaryType, BvarsSubCache> send = new HashMap<>();
  private final Map<BoundaryType, BvarsSubCache> receive = new HashMap<>();

  BvarsCache(MeshData owner) {
    this.owner = owner;
  }

  BvarsSubCache get(BoundaryType type, boolean sender) {
    return (sender ? send : receive).get(type);
  }

  void put(BoundaryType type, boolean sender, BvarsSubCache sub) {
    (sender ? send : receive).put(type, sub);
  }

  /** Lets {@code backend} forget every sub-cache's tables. */
  void releaseAll(KernelBackend backend) {
    for (Map<BoundaryType, BvarsSubCache> m : List.of(send, receive)) {
      for (BvarsSubCache sub : m.values()) {
        backend.release(sub.table);
        backend.release(sub.prores);
      }
    }
  }
}
