import type { AuditLogQuery } from '@storefront/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import { auditKeys } from './admin-keys.ts';

export function useAuditLog(query: AuditLogQuery) {
  return useQuery({
    queryKey: auditKeys.page(query),
    queryFn: ({ signal }) =>
      callApi('listAuditLog', {
        query,
        fallbackMessage: 'Failed to fetch the audit log',
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}
