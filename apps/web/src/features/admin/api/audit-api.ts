import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import { auditKeys } from './admin-keys.ts';

export function useAuditLog(page: number) {
  return useQuery({
    queryKey: auditKeys.page(page),
    queryFn: ({ signal }) =>
      callApi('listAuditLog', {
        query: { page },
        fallbackMessage: 'Failed to fetch the audit log',
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}
