import { TextInput, type TextInputProps } from '@mantine/core';

/** The e-mail field of the sign-in, sign-up and reset-request forms. */
export function EmailField(props: TextInputProps) {
  return (
    <TextInput label="Email" type="email" autoComplete="email" placeholder="you@example.com" withAsterisk {...props} />
  );
}
