"""A loopback Discord (API v10 REST + gateway) that the unmodified bot logs in to."""
