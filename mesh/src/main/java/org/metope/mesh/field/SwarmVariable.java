package org.metope.mesh.field;

/**
 * One variable of a swarm as laid out by its {@link SwarmLayout}: its name and metadata, whether
 * it holds integers, and which components of its type's component list it occupies.
 *
 * @param name the variable's name (unique within its swarm)
 * @param metadata what it is: data type ({@link MetadataFlag#INTEGER} or real) and shape
 * @param integer whether its values are {@code int} (otherwise {@code double})
 * @param firstComponent its first component among the swarm's real or integer components
 * @param components how many components it has: the product of its shape
 */
public record SwarmVariable(String name, Metadata metadata, boolean integer, int firstComponent,
    int components) {
  /** The component of shape index {@code (i)} for a vector, flattened row-major. */
  public int component(int i) {
    checkComponent(i);
    return firstComponent + i;
  }

  /** The component of shape index {@code (i, j)} for a rank-2 tensor, {@code j} fastest. */
  public int component(int i, int j) {
    int[] shape = metadata.shape();
    if (shape.length != 2 || i < 0 || i >= shape[0] || j < 0 || j >= shape[1]) {
      throw new IllegalArgumentException("swarm variable=" + name + " has no component (" + i
          + ", " + j + ")");
    }
    return firstComponent + i * shape[1] + j;
  }

  private void checkComponent(int i) {
    if (i < 0 || i >= components) {
      throw new IllegalArgumentException("swarm variable=" + name + " has no component " + i
          + " (components=" + components + ")");
    }
  }
}
