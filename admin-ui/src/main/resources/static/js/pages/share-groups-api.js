// The /api/share-groups calls of the share group pages (KIP-932 share groups).
import { request } from '../api.js';

const path = (id) => `/api/share-groups/${encodeURIComponent(id)}`;

/**
 * One page of share groups whose id contains filter and, unless state is '', in that state:
 * { total, page, size, states, groups: [{ groupId, state, members, coordinator, lag }] } (lag null when unknown).
 */
export const shareGroups = (filter, state, page, size) =>
  request('GET', `/api/share-groups?${new URLSearchParams({ filter, state, page, size })}`);

/**
 * A share group: { groupId, state, groupEpoch, assignmentEpoch, coordinator, members, operations,
 * configs, configsError, lag, partitions, partitionsError }; each partition { topic, partition, startOffset,
 * lag, inFlight, archivedRejected, archivedDeliveryLimit, lockExpiries, metricsNote } (a meter null when
 * unknown, metricsNote saying why).
 */
export const shareGroup = (id) => request('GET', path(id));

/** Sets and resets share.* configs in one batch: set { name: value }, reset [name]. */
export const changeConfigs = (id, set, reset) => request('PUT', `${path(id)}/configs`, { set, reset });

/** Resets an empty share group's start offsets: { mode: 'earliest' | 'latest', topic }. */
export const resetOffsets = (id, body) => request('POST', `${path(id)}/offsets:reset`, body);

/** Deletes an empty share group. */
export const deleteShareGroup = (id) => request('DELETE', path(id));
