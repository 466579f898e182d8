"""Account area: register, log in and out, Settings, and the person's own data."""
