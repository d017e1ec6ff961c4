package api

// Client calls the API.
type Client struct{}

func (c *Client) Do() error { return nil }
