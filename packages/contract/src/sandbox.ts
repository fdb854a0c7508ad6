// The sandbox payment pages' words, a module apart from the checkout's words so that these pages do not bring those
// along (the browser's build bundles a module whole).

export const sandboxMessages = {
  notice: 'Sandbox payment page: no real money moves and no card is charged.',
  declined: 'Your card was declined. The order is not paid; you can try again.',
  paid: 'Payment accepted. Your order is being delivered.',
} as const;
