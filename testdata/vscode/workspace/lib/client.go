package lib

// Client is the base of every service client.
type Client struct{}
