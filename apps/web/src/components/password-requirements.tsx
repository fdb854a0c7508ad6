import { List, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { passwordRules } from '@storefront/contract';
import { IconCheck, IconPoint } from '@tabler/icons-react';

/** The hint of spec section 2 under every new-password field, ticking each part of the rule off as the password meets it. */
export function PasswordRequirements({ value, id }: { value: string; id: string }) {
  return (
    <div id={id}>
      <Text size="xs" c="dimmed" mb={4}>
        Password requirements:
      </Text>
      <List size="xs" spacing={2} center>
        {passwordRules.map((rule) => {
          const met = rule.isMet(value);
          return (
            <List.Item
              key={rule.hint}
              // The tint's text colour: 4.5:1 or more on the page in both schemes (teal 8 was 3.9:1 on white).
              c={met ? 'var(--mantine-color-teal-light-color)' : 'dimmed'}
              icon={
                // A rule not yet met: a dimmed point, seen in both schemes (the gray tint's point was near-black on dark).
                <ThemeIcon
                  size={14}
                  radius="xl"
                  color={met ? 'teal' : 'gray'}
                  variant={met ? 'filled' : 'light'}
                  c={met ? undefined : 'dimmed'}
                >
                  {met ? <IconCheck size={10} aria-hidden /> : <IconPoint size={10} aria-hidden />}
                </ThemeIcon>
              }
            >
              {rule.hint}
              <VisuallyHidden>{met ? ' (met)' : ' (not yet)'}</VisuallyHidden>
            </List.Item>
          );
        })}
      </List>
    </div>
  );
}
