import { Button, Group, Stack, Text } from '@mantine/core';
import { COUNTRY_OPTIONS, USAGE_RANGES, type UsageReport } from '@storefront/contract';
import { type ReactNode, useId } from 'react';
import { RANGE_LABELS, type UsageView } from '../usage-model.ts';
import classes from './usage-controls.module.css';

/** A row of buttons of which one is chosen (aria-pressed), light where a SegmentedControl would load the form fields. */
function Choices<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of toggle buttons, not a form's fieldset
    <div role="group" aria-label={label} className={classes.choices}>
      {options.map((option) => (
        <Button
          key={option.value}
          size="compact-sm"
          variant={option.value === value ? 'filled' : 'default'}
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </Button>
      ))}
    </div>
  );
}

/** A native field under its label (the field is given the label's id to point at). */
function Field({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className={classes.field}>
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </div>
  );
}

/** The view's range, hour or day, and filters: every change goes to the address. */
export function UsageControls({
  view,
  onChange,
  users,
  problem,
}: {
  view: UsageView;
  onChange: (view: UsageView) => void;
  users: UsageReport['users'];
  problem: string | undefined;
}) {
  const userOptions = [
    { value: '', label: 'All users' },
    { value: 'main', label: 'Main user' },
    ...users
      .filter((user) => user.proxyUserId !== null)
      .map((user) => ({ value: user.proxyUserId ?? '', label: user.deleted ? `${user.name} (deleted)` : user.name })),
  ];
  if (view.user && !userOptions.some((option) => option.value === view.user))
    userOptions.push({ value: view.user, label: view.user });
  const countryOptions = [
    { value: '', label: 'All countries' },
    ...COUNTRY_OPTIONS.map((country) => ({ value: country.id, label: country.name })),
  ];
  return (
    <Stack gap="sm">
      <Group gap="md" align="center">
        <Choices
          label="Range"
          options={USAGE_RANGES.map((range) => ({ value: range, label: RANGE_LABELS[range] }))}
          value={view.range}
          onChange={(range) => onChange({ ...view, range, from: undefined, to: undefined })}
        />
        <Choices
          label="By hour or day"
          options={[
            { value: 'hour', label: 'By hour' },
            { value: 'day', label: 'By day' },
          ]}
          value={view.by ?? (view.range === 'today' ? 'hour' : 'day')}
          onChange={(by) => onChange({ ...view, by })}
        />
      </Group>
      {view.range === 'custom' && (
        <Group gap="sm" align="flex-start">
          <Field label="From">
            {(id) => (
              <input
                id={id}
                type="date"
                value={view.from ?? ''}
                onChange={(event) => onChange({ ...view, from: event.currentTarget.value || undefined })}
              />
            )}
          </Field>
          <Field label="To">
            {(id) => (
              <input
                id={id}
                type="date"
                value={view.to ?? ''}
                onChange={(event) => onChange({ ...view, to: event.currentTarget.value || undefined })}
              />
            )}
          </Field>
        </Group>
      )}
      {problem && (
        <Text size="sm" c="red" role="status">
          {problem}
        </Text>
      )}
      <Group gap="sm" align="flex-start">
        <Field label="Proxy user">
          {(id) => (
            <select
              id={id}
              value={view.user ?? ''}
              onChange={(event) => onChange({ ...view, user: event.currentTarget.value || undefined })}
            >
              {userOptions.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Country">
          {(id) => (
            <select
              id={id}
              value={view.country ?? ''}
              onChange={(event) => onChange({ ...view, country: event.currentTarget.value || undefined })}
            >
              {countryOptions.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </Group>
    </Stack>
  );
}
