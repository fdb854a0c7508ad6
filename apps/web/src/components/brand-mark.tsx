/** The shop's mark, drawn inline so it costs no request. */
export function BrandMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="#228be6" />
      <path
        d="M9 23V9h7.5a4.5 4.5 0 0 1 0 9H13v5z"
        fill="none"
        stroke="#fff"
        strokeWidth="2.6"
        strokeLinejoin="round"
      />
    </svg>
  );
}
