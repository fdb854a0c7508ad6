import { List, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconPoint } from '@tabler/icons-react';

const RULES = [
  { label: 'At least 8 characters', test: (value: string) => value.length >= 8 },
  { label: 'Upper and lower case letters', test: (value: string) => /[a-z]/.test(value) && /[A-Z]/.test(value) },
  { label: 'A number', test: (value: string) => /[0-9]/.test(value) },
  { label: 'A special character', test: (value: string) => /[^A-Za-z0-9]/.test(value) },
];

/** The sign-up hint of spec section 2, ticking each rule off as the password meets it. */
export function PasswordRequirements({ value, id }: { value: string; id: string }) {
  return (
    <div id={id}>
      <Text size="xs" c="dimmed" mb={4}>
        Password requirements:
      </Text>
      <List size="xs" spacing={2} center>
        {RULES.map((rule) => {
          const met = rule.test(value);
          return (
            <List.Item
              key={rule.label}
              c={met ? 'teal.8' : 'dimmed'}
              icon={
                <ThemeIcon size={14} radius="xl" color={met ? 'teal' : 'gray'} variant={met ? 'filled' : 'light'}>
                  {met ? <IconCheck size={10} aria-hidden /> : <IconPoint size={10} aria-hidden />}
                </ThemeIcon>
              }
            >
              {rule.label}
              <VisuallyHidden>{met ? ' (met)' : ' (not yet)'}</VisuallyHidden>
            </List.Item>
          );
        })}
      </List>
    </div>
  );
}
