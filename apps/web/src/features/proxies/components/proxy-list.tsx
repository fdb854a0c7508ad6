import { Button, Group, NativeSelect, Pagination, Stack, Table, Text } from '@mantine/core';
import { formatEndpoint, type Order, orderDownload, type ProxyFormat } from '@storefront/contract';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { type CSSProperties, Fragment, type KeyboardEvent, useId, useMemo, useState } from 'react';
import { CopyButton } from '../../../components/copy-button.tsx';
import { downloadText } from '../../../lib/download.ts';
import { pageSizeOptions, viewerRows } from '../proxies-model.ts';
import classes from './proxy-list.module.css';

/** An expanded order: its endpoints a page at a time, Download and Copy, and the whole list in a text viewer. */
export function ProxyList({ order, format }: { order: Order; format: ProxyFormat }) {
  const [pageSize, setPageSize] = useState('5');
  const [page, setPage] = useState(1);
  // Computed once per list and format, not again when the page or the page size changes.
  const lines = useMemo(() => order.proxies.map((proxy) => formatEndpoint(proxy, format)), [order.proxies, format]);
  const text = useMemo(() => lines.join('\n'), [lines]);
  const chunks = useMemo(() => textChunks(lines), [lines]);
  const size = pageSize === 'all' ? Math.max(1, lines.length) : Number(pageSize);
  const pages = Math.max(1, Math.ceil(lines.length / size));
  const current = Math.min(page, pages);
  const shown = lines.slice((current - 1) * size, current * size);
  const viewerLabelId = useId();

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm">
        {/* A native select: the combobox kind measures its dropdown's place on mounting, a forced style
            recalculation of the whole page while an order of 10,000 proxies opens. */}
        <NativeSelect
          label="Per page"
          data={pageSizeOptions(lines.length)}
          value={pageSize}
          onChange={(event) => {
            setPageSize(event.currentTarget.value);
            setPage(1);
          }}
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
      <Table.ScrollContainer minWidth={280} type="native">
        <Table striped withTableBorder fz="sm" aria-label={`Proxies of order ${order.id.slice(-8).toUpperCase()}`}>
          <Table.Tbody>
            {shown.map((line, index) => (
              <Table.Tr key={line}>
                <Table.Td w={48} c="dimmed">
                  {(current - 1) * size + index + 1}
                </Table.Td>
                <Table.Td ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  <BreakableLine line={line} />
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
      <Stack gap={4}>
        <Text id={viewerLabelId} size="sm" fw={500}>
          All proxies (text)
        </Text>
        {/* A labelled region that scrolls, focusable so that a keyboard can scroll it; Ctrl+A / Cmd+A inside selects
            the list, not the page. */}
        <section
          className={classes.viewer}
          style={{ '--viewer-rows': viewerRows(lines.length) } as CSSProperties}
          aria-labelledby={viewerLabelId}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1)
          tabIndex={0}
          onKeyDown={selectAllWithin}
        >
          {chunks.map((chunk) => (
            <div key={chunk.first} className={classes.chunk} style={{ '--chunk-lines': chunk.lines } as CSSProperties}>
              {chunk.text}
            </div>
          ))}
        </section>
      </Stack>
    </Stack>
  );
}

/**
 * An endpoint that wraps on a narrow screen after its separators (`:`, `@`, `/`), not inside a host, a user name or a
 * password; a single part wider than the column still wraps (overflow-wrap: anywhere). <wbr> adds no text: the cell's
 * text and a copied selection are the line exactly.
 */
function BreakableLine({ line }: { line: string }) {
  return line.split(/(?<=[:@/])/).map((part, index) => (
    <Fragment key={`${index}:${part}`}>
      {index > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

/** Lines per block of the text viewer: only the blocks in view are laid out (proxy-list.module.css). */
const CHUNK_LINES = 500;

/**
 * The viewer's text in blocks of CHUNK_LINES lines. Each block but the last ends with its line break, so the viewer's
 * text (and a copied selection across blocks) is the list exactly, line for line.
 */
function textChunks(lines: string[]): { first: number; lines: number; text: string }[] {
  const chunks = [];
  for (let first = 0; first < lines.length; first += CHUNK_LINES) {
    const part = lines.slice(first, first + CHUNK_LINES);
    const last = first + CHUNK_LINES >= lines.length;
    chunks.push({ first, lines: part.length, text: `${part.join('\n')}${last ? '' : '\n'}` });
  }
  return chunks;
}

/** Ctrl+A / Cmd+A in the text viewer selects its text only, as it would in a text field. */
function selectAllWithin(event: KeyboardEvent<HTMLElement>) {
  if (event.key.toLowerCase() !== 'a' || !(event.ctrlKey || event.metaKey) || event.altKey) return;
  event.preventDefault();
  const range = document.createRange();
  range.selectNodeContents(event.currentTarget);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}
