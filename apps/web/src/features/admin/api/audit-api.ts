import type { AuditLog } from '@storefront/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { auditKeys } from './admin-keys.ts';

export function useAuditLog(page: number) {
  return useQuery({
    queryKey: auditKeys.page(page),
    queryFn: ({ signal }) =>
      apiRequest<AuditLog>(`/admin/audit-log?page=${page}`, {
        fallbackMessage: 'Failed to fetch the audit log',
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}
