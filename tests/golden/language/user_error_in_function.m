disp('start');
check_positive(-1);
disp('not reached');
function check_positive(v)
    if v < 0
        error('check:neg', 'Value must be positive, got %d.', v);
    end
end
