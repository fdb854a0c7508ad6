import { Menu } from '@mantine/core';
import { PRODUCT_IDS, PRODUCTS } from '@storefront/contract';
import { useEffect, useRef } from 'react';
import { ProductsTrigger } from './products-trigger.tsx';

interface ProductsMenuProps {
  opened: boolean;
  onChange: (opened: boolean) => void;
  onChoose: () => void;
  /** Called once the menu is on screen, in place of the button shown while its code loaded. */
  onLoaded: () => void;
  /** The first opening came from a click or a key: the new button takes the focus the old one had. */
  focusOnLoad: boolean;
}

/**
 * The Products dropdown (loaded on first hover or click: its positioning library stays off the first load). It opens on
 * hover and on a click, so Enter and Space open it from the keyboard every time; Escape closes it and gives the focus
 * back to its button.
 */
export default function ProductsMenu({ opened, onChange, onChoose, onLoaded, focusOnLoad }: ProductsMenuProps) {
  const trigger = useRef<HTMLButtonElement>(null);
  // The button is focused before the menu opens, so the menu knows where to give the focus back on Escape.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the menu's code has loaded
  useEffect(() => {
    if (focusOnLoad) trigger.current?.focus();
    onLoaded();
  }, []);
  return (
    <Menu
      opened={opened}
      onChange={onChange}
      trigger="click-hover"
      openDelay={0}
      closeDelay={150}
      position="bottom-start"
      // In the navigation itself, not at the end of the page: its items stay inside the page's landmarks.
      withinPortal={false}
    >
      <Menu.Target>
        <ProductsTrigger ref={trigger} />
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
