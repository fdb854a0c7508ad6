/** The administrator's console, under /api/admin: every call here is `access: 'admin'`. */
export const adminEndpoints = {};
