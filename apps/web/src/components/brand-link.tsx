import { Anchor, Group } from '@mantine/core';
import { paths } from '@storefront/contract';
import { Link } from 'react-router';
import { site } from '../config/site.ts';
import { BrandMark } from './brand-mark.tsx';

/** The shop's mark and name, linking home: the header of the plain and the sign-in pages. */
export function BrandLink() {
  return (
    <Anchor component={Link} to={paths.home} fw={800} c="var(--mantine-color-text)" underline="never">
      <Group gap="xs">
        <BrandMark size={26} />
        {site.brandName}
      </Group>
    </Anchor>
  );
}
