package org.metope.mesh;

import org.metope.mesh.field.Metadata;
import org.metope.mesh.field.MetadataFlag;
import org.metope.mesh.field.StateDescriptor;

/** The package of the {@code FINE} field tests: a cell field beside two FINE ones. */
public final class FinePackages {
  private FinePackages() {}

  /**
   * Package {@code fine}: {@code phi} (a cell field), {@code phi_fine} (FINE) and {@code v_fine}
   * (FINE, two components), all independent and filled in ghosts, with {@code extra} flags too.
   */
  public static StateDescriptor cellAndFine(MetadataFlag... extra) {
    StateDescriptor pkg = new StateDescriptor("fine");
    pkg.addField("phi", flags(extra, Metadata.CELL).build());
    pkg.addField("phi_fine", flags(extra, Metadata.CELL, Metadata.FINE).build());
    pkg.addField("v_fine", flags(extra, Metadata.CELL, Metadata.FINE).shape(2).build());
    return pkg;
  }

  private static Metadata.Builder flags(MetadataFlag[] extra, MetadataFlag... topology) {
    MetadataFlag[] all = new MetadataFlag[extra.length + topology.length + 2];
    System.arraycopy(topology, 0, all, 0, topology.length);
    all[topology.length] = Metadata.INDEPENDENT;
    all[topology.length + 1] = Metadata.FILL_GHOST;
    System.arraycopy(extra, 0, all, topology.length + 2, extra.length);
    return Metadata.builder(all);
  }
}
