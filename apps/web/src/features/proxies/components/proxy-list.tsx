import { Button, CopyButton, Group, Pagination, Select, Stack, Table, Text, Textarea } from '@mantine/core';
import { formatEndpoint, type Order, orderDownload, type ProxyFormat } from '@storefront/contract';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { downloadText } from '../../../lib/download.ts';
import { pageSizeOptions, viewerRows } from '../proxies-model.ts';

/** An expanded order: its endpoints a page at a time, Download and Copy, and the whole list in a text viewer. */
export function ProxyList({ order, format }: { order: Order; format: ProxyFormat }) {
  const [pageSize, setPageSize] = useState('5');
  const [page, setPage] = useState(1);
  const lines = order.proxies.map((proxy) => formatEndpoint(proxy, format));
  const size = pageSize === 'all' ? Math.max(1, lines.length) : Number(pageSize);
  const pages = Math.max(1, Math.ceil(lines.length / size));
  const current = Math.min(page, pages);
  const shown = lines.slice((current - 1) * size, current * size);
  const text = lines.join('\n');

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm">
        <Select
          label="Per page"
          data={pageSizeOptions(lines.length)}
          value={pageSize}
          onChange={(value) => {
            setPageSize(value ?? '5');
            setPage(1);
          }}
          allowDeselect={false}
          w={130}
          size="xs"
        />
        <Group gap="xs" align="flex-end">
          <CopyButton value={text}>
            {({ copied, copy }) => (
              <Button
                size="xs"
                variant="default"
                onClick={copy}
                leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
              >
                {copied ? 'Copied' : 'Copy all'}
              </Button>
            )}
          </CopyButton>
          <Button
            size="xs"
            leftSection={<IconDownload size={14} aria-hidden />}
            onClick={() => {
              const file = orderDownload(order, format);
              downloadText(file.fileName, file.content);
            }}
          >
            Download
          </Button>
        </Group>
      </Group>
      <Table.ScrollContainer minWidth={280}>
        <Table striped withTableBorder fz="sm" aria-label={`Proxies of order ${order.id.slice(-8).toUpperCase()}`}>
          <Table.Tbody>
            {shown.map((line, index) => (
              <Table.Tr key={line}>
                <Table.Td w={48} c="dimmed">
                  {(current - 1) * size + index + 1}
                </Table.Td>
                <Table.Td ff="monospace" style={{ wordBreak: 'break-all' }}>
                  {line}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 && (
        <Group justify="space-between" gap="xs">
          <Text size="xs" c="dimmed">
            {(current - 1) * size + 1}–{Math.min(current * size, lines.length)} of {lines.length}
          </Text>
          <Pagination size="sm" total={pages} value={current} onChange={setPage} aria-label="Proxy pages" />
        </Group>
      )}
      <Textarea
        label="All proxies (text)"
        readOnly
        value={text}
        rows={viewerRows(lines.length)}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
      />
    </Stack>
  );
}
