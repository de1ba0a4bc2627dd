/**
 * The tables kernels read: a boundary cache as struct-of-arrays ({@link
 * org.metope.kernels.table.BoundaryTable}, built by {@link
 * org.metope.kernels.table.BoundaryTableBuilder}), a block's cell numbering ({@link
 * org.metope.kernels.table.BlockLayout}), index boxes, refinement operations and reach; {@link
 * org.metope.kernels.table.BoundaryIndex} is the only code that turns a boundary's columns into
 * arena indices.
 */
package org.metope.kernels.table;
