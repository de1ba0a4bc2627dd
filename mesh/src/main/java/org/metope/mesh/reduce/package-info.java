/**
 * Reductions over ranks that run as tasks (Parthenon's {@code utils/reductions.hpp}): {@link
 * org.metope.mesh.reduce.AllReduce} and {@link org.metope.mesh.reduce.Reduce} start in one task
 * and are polled by another, never blocking, and fold their entries in a fixed order (rank, or
 * global block id), so results do not depend on timing or on the number of ranks.
 */
package org.metope.mesh.reduce;
