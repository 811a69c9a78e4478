package agenttest_test

import (
	"context"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/realm-memory/realm/agent/agenttest"
)

// TestRouter: each request is answered by the first route whose schema and text match.
func TestRouter(t *testing.T) {
	fake := agenttest.NewFakeOpenAI(t)
	fake.Handle(agenttest.Router(t,
		agenttest.Route{Schema: "realm_judge", Contains: "pottery", Respond: agenttest.Reply(agenttest.Content("CORRECT", 3, 1))},
		agenttest.Route{Schema: "realm_judge", Respond: agenttest.Reply(agenttest.Content("WRONG", 3, 1))},
		agenttest.Route{Contains: "pottery", Respond: func(req agenttest.ChatRequest) agenttest.Response {
			return agenttest.Content("echo: "+req.LastUser(), 1, 1)
		}},
	))
	oc := openai.DefaultConfig("")
	oc.BaseURL = fake.BaseURL()
	client := openai.NewClientWithConfig(oc)
	ask := func(schema, text string) string {
		req := openai.ChatCompletionRequest{Model: "m", Messages: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: text}}}
		if schema != "" {
			req.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
				JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{Name: schema}}
		}
		resp, err := client.CreateChatCompletion(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		return resp.Choices[0].Message.Content
	}
	for _, tt := range []struct{ schema, text, want string }{
		{"realm_judge", "the pottery class", "CORRECT"},
		{"realm_judge", "the lake", "WRONG"},
		{"", "pottery", "echo: pottery"},
	} {
		if got := ask(tt.schema, tt.text); got != tt.want {
			t.Errorf("%s %q: got %q, want %q", tt.schema, tt.text, got, tt.want)
		}
	}
}
