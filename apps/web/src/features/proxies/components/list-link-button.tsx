import { Button, Popover, SegmentedControl, Stack, Text } from '@mantine/core';
import { type ProductId, type ProxyFormat, proxyListUrl } from '@storefront/contract';
import { IconLink } from '@tabler/icons-react';
import { useState } from 'react';
import { shopOrigin } from '../../../lib/page-origin.ts';
import { ListLink } from './list-link.tsx';

type Scope = 'all' | 'isp_proxies' | 'pk1_isp_proxies';

/** "List Link" beside Download List: the link a tool loads the static proxies from, in the chosen format. */
export function ListLinkButton({ tab, format }: { tab: ProductId; format: ProxyFormat }) {
  const [scope, setScope] = useState<Scope>(tab === 'residential_proxies' ? 'all' : tab);
  const url = proxyListUrl(shopOrigin(), {
    ...(scope !== 'all' && { product: scope }),
    format,
  });
  return (
    <Popover
      width="min(420px, calc(100vw - 2rem))"
      position="bottom-end"
      withArrow
      shadow="md"
      // The popover takes the focus when it opens and gives it back to its button on Escape (a keyboard user lands in
      // it, not behind it).
      trapFocus
      returnFocus
      onOpen={() => setScope(tab === 'residential_proxies' ? 'all' : tab)}
    >
      <Popover.Target>
        <Button variant="default" leftSection={<IconLink size={16} aria-hidden />}>
          List Link
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="sm">
          <Text size="sm" fw={500}>
            Load this list by link
          </Text>
          <SegmentedControl
            size="xs"
            aria-label="Proxies in the link"
            value={scope}
            onChange={(value) => setScope(value as Scope)}
            data={[
              { value: 'all', label: 'All' },
              { value: 'isp_proxies', label: 'Elite ISP' },
              { value: 'pk1_isp_proxies', label: 'PK1 ISP' },
            ]}
          />
          <ListLink url={url} />
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
