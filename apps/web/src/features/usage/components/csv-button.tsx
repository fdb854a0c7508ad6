import { Button } from '@mantine/core';
import type { UsageReport } from '@storefront/contract';
import { IconDownload } from '@tabler/icons-react';
import { downloadText } from '../../../lib/download.ts';
import { csvFileName, type UsageTableName, usageCsv } from '../usage-model.ts';

/** Saves one table of the report as CSV, built here from the same answer the page shows. */
export function CsvButton({
  report,
  table,
  label,
  timeZone,
}: {
  report: UsageReport;
  table: UsageTableName;
  label: string;
  timeZone: string | undefined;
}) {
  return (
    <Button
      variant="default"
      size="compact-sm"
      leftSection={<IconDownload size={14} aria-hidden />}
      aria-label={`Download CSV: ${label}`}
      onClick={() => downloadText(csvFileName(report, table), usageCsv(report, table, timeZone))}
    >
      Download CSV
    </Button>
  );
}
