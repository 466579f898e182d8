"""Teams: a person's teams, a team's page with its members and roles, join codes, joining."""
