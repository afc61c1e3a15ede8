package model_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/stratagate/stratagate/model"
)

// tokenClient reports fixed tokens per call, as a remote client does.
type tokenClient struct{ err error }

func (tokenClient) Name() string { return "tokens" }

func (c tokenClient) Complete(ctx context.Context, _ model.Request) (string, error) {
	model.MeterOf(ctx).Add(model.Usage{PromptTokens: 10, CompletionTokens: 2, CachedTokens: 1})
	return "{}", c.err
}

func TestCallCountsByTask(t *testing.T) {
	mt := &model.Meter{}
	ctx := model.WithMeter(context.Background(), mt)
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			task, id := model.TaskAssessEvidence, "assess_evidence/1/00000001"
			if i%2 == 1 {
				task, id = model.TaskAnswer, "answer/1/00000002"
			}
			_, _ = model.Call(ctx, tokenClient{}, model.Request{Task: task, PromptID: id})
		}()
	}
	wg.Wait()
	_, err := model.Call(ctx, tokenClient{err: errors.New("down")}, model.Request{Task: model.TaskAnswer})
	assert.Error(t, err)

	u := mt.Usage()
	assert.Equal(t, int64(11), u.Calls, "failed calls count")
	assert.Equal(t, int64(110), u.PromptTokens)
	assert.Equal(t, int64(22), u.CompletionTokens)
	assert.Equal(t, int64(11), u.CachedTokens)
	by := mt.ByTask()
	assert.Equal(t, int64(5), by[model.TaskAssessEvidence].Calls)
	assert.Equal(t, int64(6), by[model.TaskAnswer].Calls)
	assert.Equal(t, int64(60), by[model.TaskAnswer].PromptTokens)
	assert.Equal(t, "assess_evidence/1/00000001", mt.PromptOf(model.TaskAssessEvidence))
	assert.Equal(t, "answer/1/00000002", mt.PromptOf(model.TaskAnswer), "a call without a prompt id keeps the last one")
	assert.Positive(t, u.Latency)
}

func TestNilMeter(t *testing.T) {
	var mt *model.Meter
	mt.Add(model.Usage{Calls: 1})
	assert.True(t, mt.Usage().IsZero())
	assert.Empty(t, mt.Prompt())
	assert.Empty(t, mt.ByTask())
	assert.Empty(t, mt.PromptOf(model.TaskAnswer))
	// Without a meter, Call still calls.
	raw, err := model.Call(context.Background(), tokenClient{}, model.Request{})
	assert.NoError(t, err)
	assert.Equal(t, "{}", raw)
	assert.Nil(t, model.MeterOf(context.Background()))
}

func TestErrContextSizeIsPermanent(t *testing.T) {
	assert.ErrorIs(t, model.ErrContextSize, model.ErrPermanent)
}
