"""Request plumbing every area shares: body limits, input guard, session cookie, signing,
the clock and seeds of a request, error pages, the health check and shared form fields."""
