import { UnstyledButton, type UnstyledButtonProps } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { type ComponentPropsWithoutRef, forwardRef } from 'react';
import classes from './landing.module.css';

type ProductsTriggerProps = UnstyledButtonProps & ComponentPropsWithoutRef<'button'>;

/** The Products button of the navigation, the same before and after its menu is loaded. */
export const ProductsTrigger = forwardRef<HTMLButtonElement, ProductsTriggerProps>(
  function ProductsTrigger(props, ref) {
    return (
      <UnstyledButton ref={ref} className={classes.navLink} {...props}>
        Products <IconChevronDown size={16} aria-hidden />
      </UnstyledButton>
    );
  },
);
