import { Burger, Button, Container, Group, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { paths } from '@storefront/contract';
import { IconExternalLink } from '@tabler/icons-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { Link } from 'react-router';
import { BrandMark } from '../../../components/brand-mark.tsx';
import { site } from '../../../config/site.ts';
import { scrollToSection, sectionIds } from '../scroll-to-section.ts';
import classes from './landing.module.css';
import { ProductsTrigger } from './products-trigger.tsx';

// The drawer is for small screens only: its code loads the first time the burger is pressed.
const MobileMenu = lazy(() => import('./landing-mobile-menu.tsx'));
const ProductsMenu = lazy(() => import('./products-menu.tsx'));

export function LandingNav() {
  const [drawerOpened, drawer] = useDisclosure(false);
  const [drawerRequested, setDrawerRequested] = useState(false);
  const [productsOpened, setProductsOpened] = useState(false);
  // After a choice the page scrolls under a still-resting pointer; hover must not reopen the menu meanwhile.
  const menuQuietUntil = useRef(0);
  const onProductsChange = (open: boolean) => {
    if (open && performance.now() < menuQuietUntil.current) return;
    setProductsOpened(open);
  };

  // The dropdown's code (and its positioning library) loads on the first hover or click (Enter and Space on the button
  // are clicks); it opens once loaded.
  const [menuRequested, setMenuRequested] = useState(false);
  const [focusMenuOnLoad, setFocusMenuOnLoad] = useState(false);
  const requestMenu = (byClick: boolean) => {
    setMenuRequested(true);
    setFocusMenuOnLoad(byClick);
  };

  const goTo = (id: string) => {
    drawer.close();
    menuQuietUntil.current = performance.now() + 1000;
    setProductsOpened(false);
    scrollToSection(id);
  };

  return (
    <header className={classes.header}>
      <Container size="lg" h={64}>
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Link to={paths.home} className={classes.brand} aria-label={`${site.brandName} home`}>
            <BrandMark />
            {site.brandName}
          </Link>

          <Group component="nav" aria-label="Main" gap="xs" visibleFrom="sm" wrap="nowrap">
            {menuRequested ? (
              <Suspense fallback={<ProductsTrigger />}>
                <ProductsMenu
                  opened={productsOpened}
                  onChange={onProductsChange}
                  onChoose={() => goTo(sectionIds.products)}
                  onLoaded={() => setProductsOpened(true)}
                  focusOnLoad={focusMenuOnLoad}
                />
              </Suspense>
            ) : (
              <ProductsTrigger
                aria-haspopup="menu"
                aria-expanded={false}
                onMouseEnter={() => requestMenu(false)}
                onClick={() => requestMenu(true)}
              />
            )}
            <a
              href={`#${sectionIds.pricing}`}
              className={classes.navLink}
              onClick={(event) => {
                event.preventDefault();
                goTo(sectionIds.pricing);
              }}
            >
              Pricing
            </a>
            <a href={site.chatCommunityUrl} target="_blank" rel="noopener noreferrer" className={classes.navLink}>
              Community <IconExternalLink size={14} aria-hidden />
              <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
            </a>
            <Button component={Link} to={paths.login} ml="sm">
              Purchase / Sign In
            </Button>
          </Group>

          <Burger
            opened={drawerOpened}
            onClick={() => {
              setDrawerRequested(true);
              drawer.toggle();
            }}
            hiddenFrom="sm"
            color="white"
            aria-label={drawerOpened ? 'Close navigation' : 'Open navigation'}
            aria-expanded={drawerOpened}
          />
        </Group>
      </Container>

      {drawerRequested && (
        <Suspense fallback={null}>
          <MobileMenu opened={drawerOpened} onClose={drawer.close} onSection={goTo} />
        </Suspense>
      )}
    </header>
  );
}
