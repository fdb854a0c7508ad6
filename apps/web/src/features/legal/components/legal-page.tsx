import { Anchor, Container, List, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { SimplePageLayout } from '../../../components/simple-page-layout.tsx';
import { site } from '../../../config/site.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { LEGAL_LAST_UPDATED, type LegalSection } from '../legal-document.ts';

export function LegalPage({ title, intro, sections }: { title: string; intro: string; sections: LegalSection[] }) {
  usePageTitle(title);
  useEffect(() => window.scrollTo(0, 0), []);

  return (
    <SimplePageLayout>
      <Container size="md" component="article">
        <Title order={1}>{title}</Title>
        <Text c="dimmed" mt="xs">
          Last updated: {LEGAL_LAST_UPDATED}
        </Text>
        <Text mt="lg">{intro}</Text>
        <Stack gap="xl" mt="xl">
          {sections.map((section, index) => (
            <section key={section.heading} aria-labelledby={`legal-${index}`}>
              <Title order={2} size="h3" id={`legal-${index}`}>
                {index + 1}. {section.heading}
              </Title>
              {section.paragraphs.map((paragraph) => (
                <Text key={paragraph} mt="sm" lh={1.7}>
                  {paragraph}
                </Text>
              ))}
              {section.points && (
                <List mt="sm" spacing={6} withPadding>
                  {section.points.map((point) => (
                    <List.Item key={point}>{point}</List.Item>
                  ))}
                </List>
              )}
            </section>
          ))}
        </Stack>
        <Text mt={48} c="dimmed" size="sm">
          Questions about this page? Reach us in our{' '}
          <Anchor href={site.chatCommunityUrl} target="_blank" rel="noopener noreferrer" underline="always">
            chat community
          </Anchor>
          .
        </Text>
      </Container>
    </SimplePageLayout>
  );
}
