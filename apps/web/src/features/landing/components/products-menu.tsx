import { Menu } from '@mantine/core';
import { PRODUCT_IDS, PRODUCTS } from '@storefront/contract';
import { ProductsTrigger } from './products-trigger.tsx';

interface ProductsMenuProps {
  opened: boolean;
  onChange: (opened: boolean) => void;
  onChoose: () => void;
}

/** The Products hover dropdown (loaded on first hover or focus: its positioning library stays off the first load). */
export default function ProductsMenu({ opened, onChange, onChoose }: ProductsMenuProps) {
  return (
    <Menu
      opened={opened}
      onChange={onChange}
      trigger="hover"
      openDelay={0}
      closeDelay={150}
      position="bottom-start"
      withinPortal
    >
      <Menu.Target>
        <ProductsTrigger />
      </Menu.Target>
      <Menu.Dropdown>
        {PRODUCT_IDS.map((id) => (
          <Menu.Item key={id} onClick={onChoose}>
            {PRODUCTS[id].label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
