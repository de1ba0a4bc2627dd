/**
 * Boundary communication "in one" (Parthenon's {@code bvals/comms}): the task API other modules
 * call, the caches and how they are built, and the per-step exchange.
 *
 * <ul>
 *   <li>This package: {@link org.metope.bvals.InOneBoundaryCommunication} (implements the mesh's
 *       {@code BoundaryCommunication}: the tasks a driver adds), the boundary caches ({@link
 *       org.metope.bvals.BoundaryCaches}: a {@link org.metope.bvals.BvarsCache} per partition of
 *       {@link org.metope.bvals.BvarsSubCache}s, built by {@link org.metope.bvals.BoundaryCacheBuilder},
 *       which walks the boundaries, and {@link org.metope.bvals.BoundaryRows} with {@link
 *       org.metope.bvals.ElementRows} and {@link org.metope.bvals.ArenaPlaces}, the rows each
 *       boundary adds, from {@link org.metope.bvals.BoundaryIndices}), the channels of a build ({@link
 *       org.metope.bvals.ChannelBuilder}, {@link org.metope.bvals.PartitionRule}) and the exchange
 *       of
 *       one stage ({@link org.metope.bvals.BoundaryExchange}).
 *   <li>{@code bvals.channel}: what moves the buffers, independent of what is in them (channel
 *       keys, five-state {@code CommBuffer}s, the buffer arena and pools, coalesced messages,
 *       tags);
 *       internal to this module.
 *   <li>{@code bvals.conditions}: physical boundary conditions, built in and user-registered
 *       ({@code BoundaryFunctions}), run on the host or as a device launch.
 * </ul>
 */
package org.metope.bvals;
