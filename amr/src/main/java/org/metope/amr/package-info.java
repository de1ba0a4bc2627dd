/**
 * Adaptive mesh refinement (Parthenon's {@code amr_criteria}, {@code MeshRefinement} and {@code
 * mesh-amr_loadbalance.cpp}): tagging blocks each cycle ({@link
 * org.metope.amr.RefinementTagging}, with the built-in {@link
 * org.metope.amr.RefinementCriterion}s of {@code <parthenon/refinementN>} sections), changing
 * the forest ({@link org.metope.amr.TreeUpdate}), and remeshing: the new distribution, block
 * data moved between ranks ({@link org.metope.amr.BlockMigration}), whole blocks prolongated
 * and restricted through the kernels ({@link org.metope.amr.WholeBlockRefinement}), and the
 * boundary communication rebuilt. {@link org.metope.amr.AdaptiveRefinement} ties them
 * together for the driver.
 */
package org.metope.amr;
