import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import { alertsKeys } from './admin-keys.ts';

/** How often an open console asks again: an alert resolves by itself (stock arrives), and the banner follows. */
export const ALERTS_REFRESH_MS = 30_000;

/** GET /api/admin/alerts: the open alerts. */
export const openAlertsQuery = queryOptions({
  queryKey: alertsKeys.all,
  queryFn: ({ signal }) =>
    callApi('listOpenAlerts', { fallbackMessage: 'The open alerts could not be loaded.', signal }),
  refetchInterval: ALERTS_REFRESH_MS,
});

export function useOpenAlerts() {
  return useQuery(openAlertsQuery);
}
