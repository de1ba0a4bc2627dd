/**
 * Fields and packages, and where field values live.
 *
 * <p>Packages ({@link org.metope.mesh.field.StateDescriptor}) declare fields with {@link
 * org.metope.mesh.field.Metadata} and register callbacks; {@link
 * org.metope.mesh.field.Packages#resolve} fixes one field list for the run. A rank's values live
 * in one {@code double[]} arena ({@link org.metope.mesh.field.FieldStorage}) whose layout {@link
 * org.metope.mesh.field.ArenaLayout} alone describes; {@link org.metope.mesh.field.MeshData} is a
 * partition of blocks in one stage container, the unit kernels and callbacks work on.
 */
package org.metope.mesh.field;
