import { Container, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './landing.module.css';

interface LandingSectionProps {
  /** Used for the heading's id (`{name}-title`) that labels the section. */
  name: string;
  title: string;
  subtitle: string;
  /** The anchor the navigation scrolls to, when the section has one. */
  anchor?: string;
  children: ReactNode;
}

/** One section of the landing page: a labelled region with a centred heading and subtitle. */
export function LandingSection({ name, title, subtitle, anchor, children }: LandingSectionProps) {
  return (
    <Container size="lg" className={classes.section} component="section" id={anchor} aria-labelledby={`${name}-title`}>
      <Title order={2} id={`${name}-title`} ta="center" c="white">
        {title}
      </Title>
      <Text ta="center" className={classes.muted} mt="sm" mb={40}>
        {subtitle}
      </Text>
      {children}
    </Container>
  );
}
