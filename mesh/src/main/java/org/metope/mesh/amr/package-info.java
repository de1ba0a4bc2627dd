/**
 * Adaptive mesh refinement (Parthenon's {@code amr_criteria}, {@code MeshRefinement} and {@code
 * mesh-amr_loadbalance.cpp}): tagging blocks each cycle ({@link
 * org.metope.mesh.amr.RefinementTagging}, with the built-in {@link
 * org.metope.mesh.amr.RefinementCriterion}s of {@code <parthenon/refinementN>} sections), changing
 * the forest ({@link org.metope.mesh.amr.TreeUpdate}), and remeshing: the new distribution, block
 * data moved between ranks ({@link org.metope.mesh.amr.BlockMigration}), whole blocks prolongated
 * and restricted through the kernels ({@link org.metope.mesh.amr.WholeBlockRefinement}), and the
 * boundary communication rebuilt. {@link org.metope.mesh.amr.AdaptiveRefinement} ties them
 * together for the driver.
 */
package org.metope.mesh.amr;
